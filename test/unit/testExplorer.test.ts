// client/src/testExplorer.ts against a stand-in of the `vscode` module (the real one exists only inside VS Code),
// its requests answered by the built language server (dist/server.js, through test/lsp/harness.ts): without
// `vscode.tests` nothing is registered; with it, the examples' scenarios files become items with a child per
// scenario at its line; a run of all passes them, a failing expectation is a diff at its line, a scenario of
// a file whose workflow is invalid is errored with the reason, and one scenario runs alone.
// Runs under `npm test` (tsc output: the stand-in replaces `vscode` at load time); scripts/run-test.mjs cannot bundle it.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import Module from "node:module";
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LspClient } from "../lsp/harness";

class Uri {
  constructor(readonly href: string) {}
  get path(): string { return new URL(this.href).pathname; }
  toString(): string { return this.href; }
  static parse(s: string): Uri { return new Uri(s); }
}
class Position { constructor(readonly line: number, readonly character: number) {} }
class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(l1: number, c1: number, l2: number, c2: number) { this.start = new Position(l1, c1); this.end = new Position(l2, c2); }
}
class Location { constructor(readonly uri: Uri, readonly range: Position) {} }
class TestMessage {
  location?: Location;
  expectedOutput?: string;
  actualOutput?: string;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const m = new TestMessage(message);
    m.expectedOutput = expected;
    m.actualOutput = actual;
    return m;
  }
}

interface Item { id: string; label: string; uri?: Uri; range?: Range; error?: string; parent?: Item; canResolveChildren: boolean; children: Collection }
class Collection {
  readonly map = new Map<string, Item>();
  constructor(private readonly owner?: Item) {}
  get size(): number { return this.map.size; }
  add(item: Item): void { item.parent = this.owner; this.map.set(item.id, item); }
  get(id: string): Item | undefined { return this.map.get(id); }
  delete(id: string): void { this.map.delete(id); }
  replace(items: Item[]): void { this.map.clear(); for (const i of items) this.add(i); }
  forEach(f: (item: Item) => void): void { for (const i of [...this.map.values()]) f(i); }
}

type Event = [what: string, id: string, ...rest: unknown[]];

/** A stand-in of the `vscode` module with just what the file uses; `withTests` adds `vscode.tests`. */
function fakeVscode(withTests: boolean, findFiles: (exclude: string) => Uri[]) {
  const events: Event[] = [];
  const output: string[] = [];
  let profile: { handler: (request: unknown, token: unknown) => Promise<void> } | undefined;
  const controller = {
    items: new Collection(),
    resolveHandler: undefined as undefined | ((item?: Item) => Promise<void>),
    refreshHandler: undefined as unknown,
    createTestItem: (id: string, label: string, uri?: Uri): Item => {
      const item: Item = { id, label, uri, canResolveChildren: false, children: undefined as unknown as Collection };
      item.children = new Collection(item);
      return item;
    },
    createRunProfile: (_label: string, _kind: number, handler: (request: unknown, token: unknown) => Promise<void>) => { profile = { handler }; return { dispose() {} }; },
    createTestRun: () => ({
      started: (i: Item) => events.push(["started", i.id]),
      passed: (i: Item) => events.push(["passed", i.id]),
      failed: (i: Item, messages: TestMessage[]) => events.push(["failed", i.id, messages]),
      errored: (i: Item, message: TestMessage) => events.push(["errored", i.id, message]),
      skipped: (i: Item) => events.push(["skipped", i.id]),
      appendOutput: (text: string) => output.push(text),
      end: () => events.push(["end", ""]),
    }),
    invalidateTestResults: (item: Item) => events.push(["invalidated", item.id]),
    dispose() {},
  };
  const none = { dispose() {} };
  const root = resolve(".");
  const vscode: Record<string, unknown> = {
    Uri, Position, Range, Location, TestMessage,
    TestRunProfileKind: { Run: 1 },
    workspace: {
      textDocuments: [],
      createFileSystemWatcher: () => ({ onDidCreate: () => none, onDidChange: () => none, onDidDelete: () => none, dispose() {} }),
      onDidOpenTextDocument: () => none,
      onDidChangeTextDocument: () => none,
      getConfiguration: () => ({ get: () => ["ignored/**"] }),
      findFiles: async (_include: string, exclude: string) => findFiles(exclude),
      asRelativePath: (uri: Uri) => relative(root, fileURLToPath(uri.href)).replace(/\\/g, "/"),
    },
  };
  if (withTests) vscode.tests = { createTestController: () => controller };
  return { vscode, controller, events, output, run: (include?: Item[]) => profile!.handler({ include, exclude: [] }, { isCancellationRequested: false }) };
}

/** Loads client/src/testExplorer.ts with `vscode` resolved to the stand-in. */
function load(vscode: unknown): typeof import("../../client/src/testExplorer") {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = (request: string, ...rest: unknown[]) => (request === "vscode" ? vscode : original(request, ...rest));
  try {
    const path = require.resolve("../../client/src/testExplorer");
    delete require.cache[path];
    return require(path);
  } finally {
    loader._load = original;
  }
}

const example = (name: string) => new Uri(pathToFileURL(resolve("examples", name)).href);
const lineOf = (source: string, needle: string) => source.split("\n").findIndex((l) => l.includes(needle));

describe("the Test Explorer (client/src/testExplorer.ts)", () => {
  let server: LspClient;
  const client = { sendRequest: (method: string, params: unknown) => server.request(method, params) } as any;
  const context = () => ({ subscriptions: [] as Array<{ dispose(): void }> }) as any;
  const contexts: Array<{ subscriptions: Array<{ dispose(): void }> }> = [];
  const excludes: string[] = [];
  before(async () => { server = await LspClient.start({ pull: false }); });
  after(() => server.stop());
  afterEach(() => {
    for (const c of contexts.splice(0)) for (const d of c.subscriptions) d.dispose();
    delete require.cache[require.resolve("../../client/src/testExplorer")];
  });

  function start(withTests: boolean, files: Uri[]) {
    const fake = fakeVscode(withTests, (exclude) => {
      excludes.push(exclude);
      return files;
    });
    const ctx = context();
    contexts.push(ctx);
    const registered = load(fake.vscode).registerTestExplorer(ctx, client);
    return { ...fake, registered, ctx };
  }

  test("an editor without vscode.tests: nothing registered, nothing fails", () => {
    const { registered, ctx } = start(false, []);
    assert.equal(registered, false);
    assert.deepEqual(ctx.subscriptions, []);
  });

  test("the workspace's scenarios files (lwir.files.exclude, node_modules and .git left out): an item each, a child per scenario at its line", async () => {
    const files = [example("support-triage.lwir.test.yaml"), example("release-notes.lwir.test.yaml")];
    const { controller, registered } = start(true, files);
    assert.equal(registered, true);
    await controller.resolveHandler!();
    assert.equal(excludes.at(-1), "{**/node_modules/**,**/.git/**,ignored/**}");
    assert.deepEqual([...controller.items.map.values()].map((i) => i.label).sort(), ["examples/release-notes.lwir.test.yaml", "examples/support-triage.lwir.test.yaml"]);
    const triage = controller.items.get(files[0].toString())!;
    const source = readFileSync("examples/support-triage.lwir.test.yaml", "utf8");
    assert.deepEqual([...triage.children.map.values()].map((c) => [c.label, c.range!.start.line, c.uri!.toString()]), [
      ["two tickets, one redrafted", lineOf(source, "- name: two tickets"), files[0].toString()],
      ["a reviewer who never approves runs the draft out of maxVisits", lineOf(source, "- name: a reviewer"), files[0].toString()],
      ["an empty queue still writes a hand-over note", lineOf(source, "- name: an empty queue"), files[0].toString()],
    ]);
    assert.equal(triage.error, undefined);
  });

  test("run all: every scenario of the examples passes; run one: only it", async () => {
    const files = [example("support-triage.lwir.test.yaml"), example("release-notes.lwir.test.yaml")];
    const { controller, events, output, run } = start(true, files);
    await controller.resolveHandler!();
    await run();
    const results = events.filter(([what]) => what !== "started" && what !== "end");
    assert.equal(results.length, 5);
    assert.ok(results.every(([what]) => what === "passed"), JSON.stringify(results));
    assert.deepEqual(output.map((o) => o.trim()).sort(), ["examples/release-notes.lwir.test.yaml: 2 passed, 0 failed", "examples/support-triage.lwir.test.yaml: 3 passed, 0 failed"]);
    events.length = 0;
    const one = controller.items.get(files[0].toString())!.children.get(`${files[0]}#an empty queue still writes a hand-over note`)!;
    await run([one]);
    assert.deepEqual(events.map(([what, id]) => [what, id]), [["started", one.id], ["passed", one.id], ["end", ""]]);
  });

  test("a failing expectation: failed, with a diff of expected and actual at the expectation's line", async () => {
    const uri = example("release-notes.lwir.test.yaml");
    const edited = readFileSync("examples/release-notes.lwir.test.yaml", "utf8").replace("steps: [list-merged, group-changes, write-notes]", "steps: [list-merged, write-notes]");
    server.open(uri.toString(), edited);
    try {
      const { controller, events, run } = start(true, [uri]);
      await controller.resolveHandler!();
      await run();
      const failed = events.filter(([what]) => what === "failed");
      assert.equal(failed.length, 1);
      const [, id, messages] = failed[0] as [string, string, TestMessage[]];
      assert.equal(id, `${uri}#two pull requests`);
      assert.equal(messages.length, 1);
      const [message] = messages;
      assert.equal(message.message, "expect.steps: the steps run differ");
      // short values on one line, so that what VS Code writes after the line shows the difference
      assert.equal(message.expectedOutput, JSON.stringify(["list-merged", "write-notes"]));
      assert.equal(message.actualOutput, JSON.stringify(["list-merged", "group-changes", "write-notes"]));
      assert.equal(message.location!.uri.toString(), uri.toString());
      assert.equal(message.location!.range.line, lineOf(edited, "steps: [list-merged, write-notes]"));
      assert.equal(events.filter(([what]) => what === "passed").length, 1);
    } finally {
      server.close(uri.toString());
    }
  });

  test("values in the diff: a string as it is, short JSON on one line, longer JSON indented", () => {
    const { shown } = load(fakeVscode(true, () => []));
    assert.equal(shown("a\nb"), "a\nb");
    assert.equal(shown(["a", "b"]), '["a","b"]');
    const long = { sections: [{ heading: "Performance", items: ["Faster start-up (#41, @ada)"] }, { heading: "Bug fixes", items: [] }] };
    assert.equal(shown(long), JSON.stringify(long, null, 2));
    assert.equal(shown(undefined), "undefined");
  });

  test("an invalid workflow: each scenario errored with the reason; a file that does not parse shows its error on the item", async () => {
    const workflow = "file:///lwir-test/bad.lwir.json";
    const scenarios = new Uri("file:///lwir-test/bad.lwir.test.yaml");
    server.open(workflow, readFileSync("examples/release-notes.lwir.json", "utf8").replace(/("required": \[\s*)"sections"/, '$1"chapters"'));
    server.open(scenarios.toString(), readFileSync("examples/release-notes.lwir.test.yaml", "utf8"));
    try {
      const { controller, events, run } = start(true, [scenarios]);
      await controller.resolveHandler!();
      await run();
      const errored = events.filter(([what]) => what === "errored") as Array<[string, string, TestMessage]>;
      assert.equal(errored.length, 2);
      for (const [, , message] of errored) assert.match(message.message, /^bad\.lwir\.json 1 finding: the runtime would not register it/);
      server.change(scenarios.toString(), 2, [{ text: "scenarios: [\n" }]);
      await controller.resolveHandler!(controller.items.get(scenarios.toString()));
      const item = controller.items.get(scenarios.toString())!;
      assert.equal(item.children.size, 0);
      assert.match(item.error ?? "", /^bad\.lwir\.test\.yaml: \d+:\d+: /);
    } finally {
      server.close(workflow);
      server.close(scenarios.toString());
    }
  });
});
