// Protocol tests of completion: the built server (dist/server.js, run `npm run build` first) over
// stdio, driven by test/lsp/harness.ts. A `|` in a fixture marks the cursor. Includes typing
// `"{{ steps.` into an open document (didChange) and asking for completion at once, in JSON and YAML.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { CompletionItem, CompletionList, TextEdit } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { LspClient, cursor, fileUri, offsetAt, type Message } from "./harness";

type Format = "json" | "yaml";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A valid workflow: load → draft (multi-visit loop with check/route) → report. */
function workflow(): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "lsp-completion" },
    input: { schema: { type: "object", properties: { topic: { type: "string", description: "What to write about" } } } },
    output: { schema: { type: "object" } },
    permissions: { models: ["gpt-4o-mini", "claude-sonnet"], tools: ["search"] },
    steps: [
      {
        id: "load", uses: "tool.call", with: { tool: "search" },
        output: { mode: "object", schema: { type: "object", properties: { hits: { type: "array" }, total: { type: "integer", description: "Hit count" } } } },
      },
      {
        id: "draft", uses: "ai.generate", maxVisits: 3,
        with: { model: "gpt-4o-mini", prompt: "Write about {{ input.topic }}; fix {{ steps.check.lastOutput }}" },
        output: { mode: "object", schema: { type: "object", properties: { text: { type: "string" } } } },
      },
      {
        id: "check", uses: "ai.generate", maxVisits: 3, needs: ["draft"],
        with: { model: "gpt-4o-mini", prompt: "Check {{ steps.draft.lastOutput.text }}" },
        output: { mode: "object", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
      },
      { id: "route", uses: "decision", maxVisits: 3, needs: ["check"], with: { cases: [{ when: "{{ steps.check.lastOutput.ok }}", to: "report" }], default: "draft" } },
      { id: "report", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "Report" }, output: { mode: "text" } },
    ],
  };
}

const render = (doc: Json, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 }));
const uriOf = (name: string, format: Format) => fileUri(`${name}.lwir.${format}`);

function labels(result: CompletionList | CompletionItem[] | null): string[] {
  const items = result === null ? [] : Array.isArray(result) ? result : result.items;
  return items.map((i) => i.label);
}

function itemsOf(result: CompletionList | CompletionItem[] | null): CompletionItem[] {
  return result === null ? [] : Array.isArray(result) ? result : result.items;
}

/** Applies an item's edits (snippet placeholders expanded to their defaults) to a text. */
function accept(text: string, item: CompletionItem): string {
  const expand = (s: string) => s.replace(/\$\{\d+\|([^,|]*)[^}]*\|\}/g, "$1").replace(/\$\{\d+:([^}]*)\}/g, "$1").replace(/\$\{?\d+\}?/g, "").replace(/\\([$}\\])/g, "$1");
  const edits = [item.textEdit as TextEdit, ...(item.additionalTextEdits ?? [])].map((e, i) => ({
    start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), text: i === 0 && item.insertTextFormat === 2 ? expand(e.newText) : e.newText,
  })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

describe("completion over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  const complete = (uri: string, position: { line: number; character: number }) =>
    client.request<CompletionList | CompletionItem[] | null>("textDocument/completion", { textDocument: { uri }, position });

  for (const format of ["json", "yaml"] as const) {
    test(`typing "{{ steps." into an open document, completion at once (${format})`, async () => {
      const uri = uriOf("typing", format);
      const text = render(workflow(), format);
      client.open(uri, text);
      await client.waitForDiagnostics(uri, { version: 1 });
      // type the opening of a template inside report's prompt, unterminated as it is while typing
      const anchor = format === "json" ? '"prompt": "Report"' : "prompt: Report";
      const replacement = format === "json" ? '"prompt": "Report {{ steps.' : 'prompt: "Report {{ steps.';
      const version = client.edit(uri, anchor, replacement);
      const current = client.text(uri);
      const position = client.document(uri).positionAt(current.indexOf(replacement) + replacement.length);
      const result = await complete(uri, position);
      assert.deepEqual(labels(result).sort(), ["check", "draft", "load", "route"]);
      const load = itemsOf(result).find((i) => i.label === "load")!;
      assert.equal(load.detail, "tool.call · output object");
      assert.equal(load.additionalTextEdits?.length, 1, "accepting load adds it to report's needs");
      // finish the expression by hand after accepting: the needs entry is there, nothing undeclared
      const accepted = accept(current, load);
      const finished = accepted.replace(/\{\{ steps\.load(?!\.)/, "{{ steps.load.output.total }}\"").replace('}}""', '}}"');
      const analysis = analyzeText(finished, format);
      assert.deepEqual(analysis.document.parseErrors.map((p) => p.message), []);
      assert.equal(analysis.findings.filter((f) => f.code === "step.undeclared_dependency").length, 0);
      assert.ok(version > 1);
      client.close(uri);
    });

    test(`a document opened with an unterminated string: completion from the text as the user sees it (${format})`, async () => {
      const uri = uriOf("opened-open-quote", format);
      const text = render(workflow(), format);
      const anchor = format === "json" ? '"prompt": "Report"' : "prompt: Report";
      const typed = format === "json" ? '"prompt": "Report on {{ steps.' : 'prompt: "Report on {{ steps.';
      const broken = text.replace(anchor, typed);
      client.open(uri, broken);
      const published = await client.waitForDiagnostics(uri, { version: 1 });
      assert.ok(published.diagnostics.some((d) => d.code === "parse"), "the open quote is a parse error");
      const position = client.document(uri).positionAt(broken.indexOf(typed) + typed.length);
      assert.deepEqual(labels(await complete(uri, position)).sort(), ["check", "draft", "load", "route"]);
      // and after typing one more character (an incremental change), the same
      client.edit(uri, typed, typed + "d");
      const after = client.document(uri).positionAt(client.text(uri).indexOf(typed) + typed.length + 1);
      assert.ok(labels(await complete(uri, after)).includes("draft"), "draft is offered for the d typed");
      client.close(uri);
    });

    test(`step properties and schema properties (${format})`, async () => {
      const uri = uriOf("props", format);
      const doc = workflow();
      doc.steps[4].with.prompt = "HOLE";
      const rendered = render(doc, format);
      const marked = rendered.replace(format === "json" ? '"HOLE"' : "HOLE", '"{{ steps.draft.| }}"');
      const { text, position } = cursor(marked);
      client.open(uri, text);
      assert.deepEqual(labels(await complete(uri, position)), ["lastOutput", "allVisits"]);
      const version = client.edit(uri, "{{ steps.draft. }}", "{{ steps.load.output. }}");
      assert.ok(version > 1);
      const at = client.text(uri).indexOf("steps.load.output.") + "steps.load.output.".length;
      const props = itemsOf(await complete(uri, client.document(uri).positionAt(at)));
      assert.deepEqual(props.map((i) => i.label), ["hits", "total"]);
      assert.equal(props[1].detail, "integer");
      client.close(uri);
    });

    test(`values and new steps outside expressions (${format})`, async () => {
      const uri = uriOf("values", format);
      const doc = workflow();
      doc.steps[4].with.model = "HOLE";
      const rendered = render(doc, format);
      const { text, position } = cursor(rendered.replace(format === "json" ? '"HOLE"' : "HOLE", format === "json" ? '"|"' : "|"));
      client.open(uri, text);
      const models = itemsOf(await complete(uri, position));
      assert.deepEqual(models.map((i) => i.label), ["gpt-4o-mini", "claude-sonnet"]);
      const withModel = accept(text, models[1]);
      assert.deepEqual(analyzeText(withModel, format).findings.map((f) => f.code), []);
      client.close(uri);

      const stepsUri = uriOf("newstep", format);
      const base = render(workflow(), format);
      const marked = format === "yaml" ? base + "  - |" : base.slice(0, base.lastIndexOf("}\n  ]")) + "},\n    |\n  ]\n}\n";
      client.open(stepsUri, render(workflow(), format));
      await client.waitForDiagnostics(stepsUri, { version: 1 });
      const c = cursor(marked);
      client.change(stepsUri, 2, [{ text: c.text }]);
      const steps = itemsOf(await complete(stepsUri, c.position));
      assert.deepEqual(steps.map((i) => i.label), ["ai.generate step", "tool.call step", "code.run step", "parallel step", "decision step"]);
      const added = accept(c.text, steps.find((i) => i.label === "parallel step")!);
      const findings = analyzeText(added, format).findings.filter((f) => f.path.startsWith("$.steps[5]"));
      assert.deepEqual(findings.map((f) => f.code), []);
      client.close(stepsUri);
    });

    test(`an ordinary ${format} file gets no completion`, async () => {
      const uri = fileUri(`plain.${format}`);
      const { text, position } = cursor(format === "json" ? '{"a": "{{ steps.|"}' : 'a: "{{ steps.|"\n');
      client.open(uri, text);
      const result = await complete(uri, position);
      assert.deepEqual(labels(result), []);
      client.close(uri);
    });
  }
});

// service/completion.ts CompletionTrigger: a list the editor opens by itself on a trigger character is
// answered in JSON only inside `{{ }}` (else the natural Enter after `{` would accept an item); asked
// for (Invoked), everything; YAML answers its trigger characters as before.
describe("LSP: completion opened by a trigger character", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  const ask = (uri: string, position: { line: number; character: number }, context: { triggerKind: number; triggerCharacter?: string }) =>
    client.request<CompletionList | CompletionItem[] | null>("textDocument/completion", { textDocument: { uri }, position, context });
  const TYPED = (triggerCharacter: string) => ({ triggerKind: 2, triggerCharacter });
  const INVOKED = { triggerKind: 1 };

  test("JSON: `{` typed in an empty document answers nothing; Ctrl+Space (Invoked) answers the top-level keys", async () => {
    const uri = uriOf("trigger-empty", "json");
    client.open(uri, "{");
    const at = { line: 0, character: 1 };
    assert.deepEqual(labels(await ask(uri, at, TYPED("{"))), []);
    const invoked = labels(await ask(uri, at, INVOKED));
    assert.ok(invoked.includes("apiVersion") && invoked.includes("steps"), `Invoked: ${invoked.join(", ")}`);
    // a request without context (older clients) is asked for too
    assert.deepEqual(labels(await client.request<CompletionList | null>("textDocument/completion", { textDocument: { uri }, position: at })), invoked);
    client.close(uri);
  });

  test("JSON: `{` and `\"` typed in the steps list answer nothing; Invoked answers the step snippets and keys", async () => {
    const base = render(workflow(), "json");
    const newStep = base.slice(0, base.lastIndexOf("}\n  ]")) + "},\n    {|\n  ]\n}\n";
    const uri = uriOf("trigger-step", "json");
    const c = cursor(newStep);
    client.open(uri, c.text);
    assert.deepEqual(labels(await ask(uri, c.position, TYPED("{"))), []);
    assert.ok(labels(await ask(uri, c.position, INVOKED)).includes("uses"));
    const quoted = cursor(newStep.replace("{|", '{"|"'));
    client.change(uri, 2, [{ text: quoted.text }]);
    assert.deepEqual(labels(await ask(uri, quoted.position, TYPED('"'))), []);
    assert.ok(labels(await ask(uri, quoted.position, INVOKED)).includes("uses"));
    client.close(uri);
  });

  for (const format of ["json", "yaml"] as const) {
    test(`${format}: typed inside \`{{\` (the second \`{\`, a \`.\`, a space) answers the expression's items`, async () => {
      const doc = workflow();
      doc.steps[4].with.prompt = "Report {{|";
      const c = cursor(render(doc, format));
      const uri = uriOf("trigger-template", format);
      client.open(uri, c.text);
      const roots = labels(await ask(uri, c.position, TYPED("{")));
      assert.ok(roots.includes("steps") && roots.includes("input"), `after {{: ${roots.join(", ")}`);
      client.change(uri, 2, [{ text: c.text.replace("Report {{", "Report {{ steps.") }]);
      const dot = { line: c.position.line, character: c.position.character + " steps.".length };
      assert.deepEqual(labels(await ask(uri, dot, TYPED("."))).sort(), ["check", "draft", "load", "route"]);
      client.change(uri, 3, [{ text: c.text.replace("Report {{", "Report {{ ") }]);
      const space = { line: c.position.line, character: c.position.character + 1 };
      assert.ok(labels(await ask(uri, space, TYPED(" "))).includes("steps"));
      client.close(uri);
    });
  }

  test("YAML: `-` typed for a new step still answers the step snippets", async () => {
    const c = cursor(render(workflow(), "yaml") + "  -|");
    const uri = uriOf("trigger-dash", "yaml");
    client.open(uri, c.text);
    assert.ok(labels(await ask(uri, c.position, TYPED("-"))).includes("ai.generate step"));
    client.close(uri);
  });
});

// Requests first (server/src/lsp/outstandingRequests.ts): with validation at once (delay 0), the change and a
// completion request arriving together must not queue the completion behind the change's validation.
describe("LSP: completion typed with a change is answered before that change is validated", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(async () => { await client.stop(); });

  for (const format of ["json", "yaml"] as const) {
    test(format, async () => {
      const uri = uriOf("requests-first", format);
      const doc = workflow();
      doc.steps[4].with.prompt = "Report {{ steps";
      const text = render(doc, format);
      client.open(uri, text);
      await client.waitForDiagnostics(uri, { version: 1 });
      const offset = text.lastIndexOf("{{ steps") + "{{ steps".length;
      const position = client.document(uri).positionAt(offset);
      for (let version = 2; version <= 6; version += 2) {
        const id = 90_000 + version;
        // one write: the `.` and the completion request, as an editor sends them while typing
        client.writeTogether([
          { jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges: [{ range: { start: position, end: position }, text: "." }] } },
          { jsonrpc: "2.0", id, method: "textDocument/completion", params: { textDocument: { uri }, position: { line: position.line, character: position.character + 1 }, context: { triggerKind: 2, triggerCharacter: "." } } },
        ]);
        const reply = await client.waitFor((m) => m.id === id, `completion ${id}`);
        const published = await client.waitForNotification("textDocument/publishDiagnostics", (p) => p.uri === uri && p.version === version);
        // the same items as a completion asked once the version is analysed
        const settled = await client.request<CompletionList | CompletionItem[] | null>("textDocument/completion", { textDocument: { uri }, position: { line: position.line, character: position.character + 1 } });
        assert.deepEqual(labels(reply.result), labels(settled));
        assert.deepEqual(labels(settled).sort(), ["check", "draft", "load", "route"]);
        const order = (pred: (m: Message) => boolean) => client.received.findIndex(pred);
        assert.ok(order((m) => m.id === id) < order((m) => m.params === published), `completion answered after the diagnostics of version ${version}`);
        // undo the `.`, and let the server settle
        client.writeTogether([{ jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version: version + 1 }, contentChanges: [{ range: { start: position, end: { line: position.line, character: position.character + 1 } }, text: "" }] } }]);
        await client.waitForNotification("textDocument/publishDiagnostics", (p) => p.uri === uri && p.version === version + 1);
      }
      client.close(uri);
    });
  }
});

// service/completionList.ts: a client that reads itemDefaults and resolves documentation gets a compact
// list that means the same as the full one a small client gets.
describe("LSP: compact completion lists for clients that read itemDefaults and resolve documentation", () => {
  let full: LspClient;
  let compact: LspClient;
  const capabilities = {
    textDocument: {
      completion: {
        completionItem: { snippetSupport: true, resolveSupport: { properties: ["documentation", "detail", "additionalTextEdits"] } },
        completionList: { itemDefaults: ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"] },
      },
    },
  };
  before(async () => {
    full = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } });
    compact = await LspClient.start({ capabilities, initializationOptions: { settings: { validation: { delay: 0 } } } });
  });
  after(async () => { await full.stop(); await compact.stop(); });

  for (const format of ["json", "yaml"] as const) {
    test(format, async () => {
      assert.equal(compact.initializeResult.capabilities.completionProvider?.resolveProvider, true);
      assert.equal(full.initializeResult.capabilities.completionProvider?.resolveProvider, false);
      const doc = workflow();
      doc.steps[4].with.prompt = "Report {{ steps.@ }} and {{ # }}";
      const marked = render(doc, format);
      const stepsAt = cursor(marked.replace("#", ""), "@");
      const rootsAt = cursor(marked.replace("@", ""), "#");
      const uri = uriOf("compact", format);
      const ask = async (client: LspClient, at: { text: string; position: { line: number; character: number } }) => {
        client.open(uri, at.text);
        const result = await client.request<CompletionList | CompletionItem[] | null>("textDocument/completion", { textDocument: { uri }, position: at.position });
        client.close(uri);
        return result;
      };
      // the step ids after `{{ steps.`
      const fullList = await ask(full, stepsAt);
      const compactList = (await ask(compact, stepsAt)) as CompletionList;
      const fullItems = itemsOf(fullList);
      assert.deepEqual(compactList.items.map((i) => i.label), fullItems.map((i) => i.label));
      assert.ok(fullItems.length >= 4);
      const range = (fullItems[0].textEdit as TextEdit).range;
      assert.deepEqual(compactList.itemDefaults?.editRange, range);
      for (const [i, item] of compactList.items.entries()) {
        const whole = fullItems[i];
        assert.equal(item.textEdit, undefined, `${item.label}: the shared edit range`);
        assert.deepEqual((whole.textEdit as TextEdit), { range, newText: item.label });
        assert.equal(item.filterText, undefined);
        assert.equal(item.documentation, undefined);
        assert.deepEqual(item.additionalTextEdits, whole.additionalTextEdits);
        const resolved = await compact.request<CompletionItem>("completionItem/resolve", item);
        assert.deepEqual(resolved.documentation, whole.documentation, `${item.label}: documentation on resolve`);
      }
      // functions are snippets: they keep their own edits
      const roots = (await ask(compact, rootsAt)) as CompletionList;
      const coalesce = roots.items.find((i) => i.label === "coalesce")!;
      assert.match((coalesce.textEdit as TextEdit).newText, /^coalesce\(\$\{1:/);
      // an item from an older list resolves to itself
      const stale = await compact.request<CompletionItem>("completionItem/resolve", compactList.items[0]);
      assert.equal(stale.documentation, undefined);
    });
  }
});

// service/completionStepWindow.ts: a long step list goes out as a window marked incomplete, and the client's
// next request, with more typed, gets the matching steps from the whole list.
describe("LSP: long step lists are a window, asked again as the user types", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(async () => { await client.stop(); });

  for (const format of ["json", "yaml"] as const) {
    test(format, async () => {
      const doc = workflow();
      const chain = Array.from({ length: 600 }, (_, i) => ({
        id: `s${i}`, uses: "ai.generate", needs: i > 0 ? [`s${i - 1}`] : [],
        with: { model: "gpt-4o-mini", prompt: i === 300 ? "Use {{ steps" : `Step ${i}` }, output: { mode: "text" },
      }));
      doc.steps.push(...chain);
      const text = render(doc, format);
      const uri = uriOf("long-list", format);
      client.open(uri, text);
      await client.waitForDiagnostics(uri, { version: 1 });
      const offset = text.indexOf("Use {{ steps") + "Use {{ steps".length;
      const position = client.document(uri).positionAt(offset);
      const ask = async (typed: string, version: number, id: number) => {
        // the typed text and the request in one write, as an editor sends them
        const at = { line: position.line, character: position.character + typed.length };
        client.writeTogether([
          { jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges: [{ range: { start: position, end: position }, text: typed }] } },
          { jsonrpc: "2.0", id, method: "textDocument/completion", params: { textDocument: { uri }, position: at, context: { triggerKind: typed.length === 1 ? 2 : 3 } } },
        ]);
        const reply = (await client.waitFor((m) => m.id === id, `completion ${id}`)).result as CompletionList;
        await client.waitForDiagnostics(uri, { version });
        // undo, so that the next round types from `{{ steps` again
        client.writeTogether([{ jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version: version + 1 }, contentChanges: [{ range: { start: position, end: at }, text: "" }] } }]);
        await client.waitForDiagnostics(uri, { version: version + 1 });
        return reply;
      };
      const window = await ask(".", 2, 91_001);
      assert.equal(window.isIncomplete, true);
      assert.equal(window.items.length, 200);
      assert.ok(labels(window).includes("s299") && labels(window).includes("s301") && !labels(window).includes("s0"));
      const typed = await ask(".s55", 4, 91_002);
      assert.equal(typed.isIncomplete, true, "still filtered from a longer list");
      // every id with s, 5, 5 in that order (what any client's filter could keep), from the whole list
      const inOrder = (id: string) => /s.*5.*5/.test(id);
      assert.deepEqual(labels(typed).sort(), chain.map((s) => s.id).filter((id) => id !== "s300" && inOrder(id)).sort());
      assert.ok(labels(typed).includes("s55") && labels(typed).includes("s559"));
      client.close(uri);
    });
  }
});
