// `lwir mcp` driven over stdio by the MCP SDK's own client, as an agent's client drives it: the built
// dist/cli.js (run `npm run build` first; `npm test` does). Every answer is checked against the output
// schema the tool declares (Ajv, beside the SDK client's own check); every bad input is a tool error with a
// clear message, and the server answers the next call after it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Ajv from "ajv";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { parseArgs } from "../../server/src/cli/args";
import { answerAgentTool } from "../../server/src/mcp/languageServer";

const CLI = resolve("dist/cli.js");
const EXAMPLES = resolve("examples");
const TOOLS = ["validate", "fix", "explain", "graph", "schema", "complete", "dry_run", "test"];

let client: Client;
let tools: Map<string, Tool>;
let dir: string;
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ReturnType<Ajv["compile"]>>();
/** Bytes of every answer, by tool (the text content), for the figures in docs/agents.md. */
const sizes: Array<{ tool: string; bytes: number }> = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "lwir-mcp-"));
  client = new Client({ name: "lwir-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd: dir, stderr: "pipe" }));
  tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
});

after(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A tool call whose answer must be a success that conforms to the tool's output schema. */
async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  assert.notEqual(result.isError, true, `${name} failed: ${text}`);
  let validate = validators.get(name);
  if (!validate) {
    const { $schema: _, ...schema } = tools.get(name)!.outputSchema as Record<string, unknown>;
    validators.set(name, (validate = ajv.compile(schema)));
  }
  assert.ok(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
  // The text content is the same answer, for clients that read only text.
  assert.deepEqual(JSON.parse(text), result.structuredContent);
  sizes.push({ tool: name, bytes: Buffer.byteLength(text) });
  return result.structuredContent;
}

/** A tool call that must be a tool error (not a protocol error, not a crash); its message. */
async function fails(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, true, `${name} should fail: ${JSON.stringify(result).slice(0, 300)}`);
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  assert.ok(text.length > 10, "the error says what is wrong");
  assert.doesNotMatch(text, /\n\s+at /, "no stack trace");
  return text;
}

/** A valid workflow (JSON text) with these steps: input {name}, a text output, the model gpt-4o-mini allowed. */
function workflowOf(steps: object[]): string {
  return JSON.stringify({
    apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "t", version: "0.1.0" },
    input: { schema: { type: "object", properties: { name: { type: "string" } } } }, output: { schema: { type: "string" } },
    permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] }, steps,
  }, null, 2);
}

/** `lwir run --dry` or `lwir test` with --format json: the CLI's answer the tools must agree with. */
function cliDry(args: string[], cwd = process.cwd()): any {
  const run = spawnSync(process.execPath, [CLI, ...args, "--format", "json"], { cwd, encoding: "utf8" });
  return JSON.parse(run.stdout);
}

function cliJson(args: string[], cwd = process.cwd()): any {
  const run = spawnSync(process.execPath, [CLI, "validate", "--format", "json", ...args], { cwd, encoding: "utf8" });
  return JSON.parse(run.stdout);
}

/** Applies 1-based line/column edits to a text, as a client applying the answer would. */
function applyEdits(text: string, edits: Array<{ line: number; column: number; endLine: number; endColumn: number; newText: string }>): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  const offset = (line: number, column: number) => (line - 1 < starts.length ? starts[line - 1] + column - 1 : text.length);
  let out = text;
  for (const e of [...edits].sort((a, b) => b.line - a.line || b.column - a.column)) {
    out = out.slice(0, offset(e.line, e.column)) + e.newText + out.slice(offset(e.endLine, e.endColumn));
  }
  return out;
}

describe("lwir mcp on the command line, and its answers in the language server", () => {
  test("lwir mcp takes no argument", () => {
    assert.deepEqual(parseArgs(["mcp"]), { kind: "mcp" });
    assert.deepEqual(parseArgs(["mcp", "flows/"]), { kind: "usage-error", message: "lwir mcp takes no argument" });
  });

  test("the language server's lwir/agentTool gives the tools' answers on text, and reads or writes no file", () => {
    const text = readFileSync(join(EXAMPLES, "broken-review.lwir.yaml"), "utf8");
    const answer = answerAgentTool({ tool: "validate", input: { text, format: "yaml" } });
    assert.equal(answer.error, undefined);
    assert.equal(answer.answer?.valid, false);
    assert.equal((answer.answer?.findings as unknown[]).length, 4);
    assert.match(answerAgentTool({ tool: "validate", input: { path: join(EXAMPLES, "broken-review.lwir.yaml") } }).error ?? "", /not for a path/);
    assert.match(answerAgentTool({ tool: "fix", input: { text, write: true } }).error ?? "", /not for a path/);
    assert.match(answerAgentTool({ tool: "schema", input: {} }).error ?? "", /Unknown tool/);
    assert.match(answerAgentTool({ tool: "validate", input: {} }).error ?? "", /either path/);
    assert.equal(answerAgentTool({ tool: "explain", input: { code: "step.invalid_id" } }).answer?.code, "step.invalid_id");
  });
});

describe("lwir mcp over stdio, through the SDK's client", { timeout: 120_000 }, () => {
  test("initialize: the server says who it is, offers tools and resources, and tells agents how to use them", () => {
    assert.equal(client.getServerVersion()?.name, "lwir");
    assert.ok(client.getServerCapabilities()?.tools);
    assert.ok(client.getServerCapabilities()?.resources);
    assert.match(client.getInstructions() ?? "", /lwir:\/\/reference/);
  });

  test("every tool has an input and an output schema and annotations; only fix may change a file", () => {
    assert.deepEqual([...tools.keys()].sort(), [...TOOLS].sort());
    for (const tool of tools.values()) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.equal(tool.outputSchema?.type, "object", tool.name);
      assert.equal(tool.annotations?.readOnlyHint, tool.name !== "fix", tool.name);
      assert.equal(tool.annotations?.openWorldHint, false, tool.name);
      assert.ok((tool.description ?? "").length > 40, tool.name);
    }
  });

  test("validate: a valid file, with the WorkflowVersion lwir validate gives", async () => {
    const file = join(EXAMPLES, "support-triage.lwir.yaml");
    const answer = await ok("validate", { path: file });
    const cli = cliJson([file]).files[0];
    assert.equal(answer.valid, true);
    assert.deepEqual(answer.workflowVersion, cli.workflowVersion);
    assert.deepEqual(answer.findings, []);
  });

  test("validate: an invalid file lists what lwir validate lists, with positions and the editor's fixes as edits", async () => {
    const file = join(EXAMPLES, "broken-review.lwir.yaml");
    const answer = await ok("validate", { path: file });
    const cli = cliJson([file]).files[0];
    assert.equal(answer.valid, false);
    assert.equal(answer.workflowVersion, null);
    const expected = [...cli.findings, ...cli.notices].map((f: any) => `${f.code} ${f.path} ${f.range.start.line + 1}:${f.range.start.character + 1} ${f.message}`).sort();
    assert.deepEqual(answer.findings.map((f: any) => `${f.code} ${f.path} ${f.line}:${f.column} ${f.message}`).sort(), expected);
    assert.equal(answer.total, expected.length);
    const needs = answer.findings.find((f: any) => f.code === "step.undeclared_dependency");
    assert.equal(needs.origin, "runtime");
    const auto = needs.fixes.find((f: any) => f.auto);
    assert.match(auto.title, /needs/);
    // The fix's edits, applied to the file, remove that finding.
    const fixedText = applyEdits(readFileSync(file, "utf8"), auto.edits);
    const again = await ok("validate", { text: fixedText, format: "yaml" });
    assert.equal(again.findings.filter((f: any) => f.code === "step.undeclared_dependency").length, 0);
  });

  test("validate: text in either format; our own warnings are marked origin lwir, the runtime's origin runtime", async () => {
    const yaml = readFileSync(join(EXAMPLES, "support-triage.lwir.yaml"), "utf8").replace('queue: "{{ input.queue }}"', "queue: {{ input.queue }}");
    const answer = await ok("validate", { text: yaml, format: "yaml" });
    const quote = answer.findings.find((f: any) => f.code === "lwir.yaml_unquoted_template");
    assert.equal(quote.origin, "lwir");
    assert.equal(quote.severity, "warning");
    assert.ok(quote.fixes.some((f: any) => f.auto));
    const json = await ok("validate", { text: readFileSync(join(EXAMPLES, "release-notes.lwir.json"), "utf8") });
    assert.equal(json.format, "json");
    assert.equal(json.valid, true);
  });

  test("validate: text that does not parse is a finding (code parse), not a failure", async () => {
    const answer = await ok("validate", { text: '{"apiVersion": "littleworkflow.dev/v0.1",, }', format: "json" });
    assert.equal(answer.valid, false);
    assert.equal(answer.findings[0].code, "parse");
    assert.equal(answer.findings[0].origin, "runtime");
  });

  test("validate: many findings come in pages, and the cursors give every one once", async () => {
    const steps = Array.from({ length: 150 }, (_, i) => ({ id: `s${i}`, uses: "ai.generate", with: { model: "nope", prompt: "x" }, output: { mode: "text" } }));
    const doc = JSON.stringify({
      apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "many", version: "0.1.0" },
      input: { schema: { type: "object" } }, output: { schema: { type: "string" } },
      permissions: { models: [], tools: [], secrets: [], network: [] }, steps,
    }, null, 2);
    const first = await ok("validate", { text: doc });
    assert.equal(first.findings.length, 100);
    assert.ok(first.total > 150);
    const seen = [...first.findings];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await ok("validate", { text: doc, cursor });
      seen.push(...page.findings);
      cursor = page.nextCursor;
    }
    assert.equal(seen.length, first.total);
    await fails("validate", { text: doc, cursor: "banana" });
  });

  test("fix: the text lwir validate --fix makes, its edits, and what remains; write: true writes the file as the CLI does", async () => {
    const source = join(EXAMPLES, "broken-review.lwir.yaml");
    const text = readFileSync(source, "utf8");
    const viaCli = join(dir, "cli.lwir.yaml");
    copyFileSync(source, viaCli);
    spawnSync(process.execPath, [CLI, "validate", "--fix", viaCli], { encoding: "utf8" });
    const expected = readFileSync(viaCli, "utf8");
    assert.notEqual(expected, text, "the CLI fixed something");

    const answer = await ok("fix", { text, format: "yaml" });
    assert.equal(answer.text, expected);
    assert.equal(answer.written, false);
    assert.ok(answer.fixed >= 2);
    assert.equal(answer.applied.length, answer.fixed);
    assert.equal(applyEdits(text, answer.edits), expected, "the edits turn the given text into the fixed one");
    const remaining = cliJson([viaCli]).files[0];
    assert.deepEqual(answer.remaining.map((f: any) => f.code).sort(), [...remaining.findings, ...remaining.notices].map((f: any) => f.code).sort());
    assert.equal(answer.remainingTotal, answer.remaining.length);

    const viaMcp = join(dir, "mcp.lwir.yaml");
    copyFileSync(source, viaMcp);
    const written = await ok("fix", { path: viaMcp, write: true });
    assert.equal(written.written, true);
    assert.equal(readFileSync(viaMcp, "utf8"), expected);
    // A second fix finds nothing to do.
    const again = await ok("fix", { path: viaMcp, write: true });
    assert.equal(again.fixed, 0);
    assert.equal(again.written, false);
    assert.deepEqual(again.edits, []);
    // Without write, the file stays as it was.
    copyFileSync(source, viaMcp);
    await ok("fix", { path: viaMcp });
    assert.equal(readFileSync(viaMcp, "utf8"), text);
  });

  test("fix: write needs a path; a relative path is read from the server's working folder", async () => {
    assert.match(await fails("fix", { text: "a: 1", write: true }), /needs a path/);
    copyFileSync(join(EXAMPLES, "release-notes.lwir.json"), join(dir, "rel.lwir.json"));
    const answer = await ok("fix", { path: "rel.lwir.json" });
    assert.equal(answer.valid, true);
    assert.equal(answer.fixed, 0);
  });

  test("explain: the rule page of a code; an unknown code names the close ones", async () => {
    const page = await ok("explain", { code: "step.missing_dependency" });
    assert.equal(page.origin, "runtime");
    assert.equal(page.page, readFileSync("docs/rules/step.missing_dependency.md", "utf8"));
    assert.equal((await ok("explain", { code: "lwir.yaml_unquoted_template" })).origin, "lwir");
    assert.match(await fails("explain", { code: "step.missing_dependancy" }), /Did you mean step\.missing_dependency/);
  });

  test("graph: Mermaid and the JSON model of lwir graph; text that does not parse is a tool error", async () => {
    const file = join(EXAMPLES, "support-triage.lwir.yaml");
    const mermaid = await ok("graph", { path: file });
    const cli = spawnSync(process.execPath, [CLI, "graph", file], { encoding: "utf8" });
    assert.equal(mermaid.text, cli.stdout);
    const json = await ok("graph", { path: file, output: "json" });
    assert.ok(Array.isArray(JSON.parse(json.text).nodes));
    assert.match(await fails("graph", { text: "steps: [", format: "yaml" }), /does not parse at 1:/);
  });

  test("schema: LWIR's JSON Schema, whole across its pages", async () => {
    let text = "";
    let cursor: string | undefined;
    do {
      const page = await ok("schema", cursor ? { cursor } : {});
      text += page.text;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync("schemas/lwir.schema.json", "utf8")));
  });

  test("complete: the steps a step may read after {{ steps., and the functions and roots in an expression", async () => {
    const text = readFileSync(join(EXAMPLES, "support-triage.lwir.yaml"), "utf8");
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes("items: \"{{ steps.fetch-queue.output.tickets }}\""));
    const column = lines[line].indexOf("steps.") + "steps.".length + 1;
    const steps = await ok("complete", { text, format: "yaml", line: line + 1, column });
    assert.ok(steps.items.some((i: any) => i.label === "fetch-queue"), JSON.stringify(steps.items));
    const roots = await ok("complete", { text, format: "yaml", line: line + 1, column: lines[line].indexOf("{{ ") + 4 });
    assert.ok(roots.items.some((i: any) => i.label === "input"));
    assert.ok(roots.items.some((i: any) => i.label === "coalesce" && i.kind === "function"));
    assert.match(await fails("complete", { text, line: 100000, column: 1 }), /not in the document/);
  });

  test("bad arguments, a path that does not exist, a folder, a huge document: tool errors with a clear message", async () => {
    assert.match(await fails("validate", {}), /either path .* or text/);
    assert.match(await fails("validate", { path: "a", text: "b" }), /not both/);
    assert.match(await fails("validate", { text: 42 }), /text/);
    assert.match(await fails("validate", { text: "a: 1", format: "toml" }), /format/);
    assert.match(await fails("explain", {}), /code/);
    assert.match(await fails("complete", { text: "a: 1", line: 0, column: 1 }), /line/);
    assert.match(await fails("validate", { path: join(dir, "missing.lwir.yaml") }), /Cannot read .*missing\.lwir\.yaml: no such file/);
    assert.match(await fails("fix", { path: join(dir, "missing.lwir.yaml"), write: true }), /no such file/);
    assert.match(await fails("validate", { path: dir }), /is a folder/);
    const huge = "# " + "x".repeat(9 * 1024 * 1024) + "\n";
    assert.match(await fails("validate", { text: huge, format: "yaml" }), /at most 8388608 bytes/);
    const hugeFile = join(dir, "huge.lwir.yaml");
    writeFileSync(hugeFile, huge);
    assert.match(await fails("graph", { path: hugeFile }), /at most 8388608 bytes/);
    // Still up and answering.
    assert.equal((await ok("validate", { path: join(EXAMPLES, "release-notes.lwir.json") })).valid, true);
  });

  test("dry_run: generated input and samples; each step's path, sample and prompts, the output, as lwir run --dry gives them", async () => {
    const file = join(EXAMPLES, "release-notes.lwir.json");
    const answer = await ok("dry_run", { path: file });
    const cli = cliDry(["run", "--dry", file]);
    assert.equal(answer.mode, "run");
    assert.equal(answer.status, "completed");
    assert.equal(answer.inputFrom, "generated from input.schema");
    assert.deepEqual(answer.input, cli.input);
    assert.deepEqual(answer.steps.map((s: any) => s.path), cli.steps.map((s: any) => s.path));
    assert.equal(answer.total, cli.steps.length);
    assert.deepEqual(answer.output, cli.output);
    assert.ok(answer.steps.every((s: any) => s.sample === "generated"));
    const notes = answer.steps.find((s: any) => s.uses === "ai.generate");
    const cliNotes = cli.steps.find((s: any) => s.uses === "ai.generate");
    assert.equal(notes.system, cliNotes.system);
    assert.equal(notes.user, cliNotes.user);
    assert.match(notes.user, /\n\nInput:\n\{/);
    assert.equal(answer.error, undefined);
    assert.equal(answer.nextCursor, undefined);
  });

  test("dry_run: a scenario of the scenarios file beside the path, its samples given, its decisions' choices", async () => {
    const file = join(EXAMPLES, "support-triage.lwir.yaml");
    const answer = await ok("dry_run", { path: file, scenario: "two tickets, one redrafted" });
    assert.equal(answer.scenario, "two tickets, one redrafted");
    assert.equal(answer.inputFrom, "from the scenario");
    assert.deepEqual(answer.input, { queue: "billing-eu" });
    assert.equal(answer.status, "completed");
    assert.equal(answer.output, "Queue billing-eu: 2 tickets (2 billing), none failed, nothing urgent.");
    const cli = cliDry(["run", "--dry", file, "--scenario", "two tickets, one redrafted"]);
    assert.deepEqual(answer.steps.map((s: any) => s.path), cli.steps.map((s: any) => s.path));
    const routes = answer.steps.filter((s: any) => s.uses === "decision").map((s: any) => [s.path, s.chosen, s.case ?? (s.byDefault ? "default" : "?")]);
    assert.deepEqual(routes, [["triage[T-1].route.visit[0]", "end", 0], ["triage[T-2].route.visit[0]", "draft", "default"], ["triage[T-2].route.visit[1]", "end", 0]]);
    assert.equal(answer.steps.find((s: any) => s.path === "triage[T-2].draft.visit[1]").visit, 1);
    assert.ok(answer.steps.filter((s: any) => s.uses === "ai.generate").every((s: any) => s.sample === "given"));
    assert.match(answer.steps.find((s: any) => s.path === "triage[T-2].draft.visit[1]").user, /Say when the change takes effect/);
    assert.deepEqual(answer.steps.find((s: any) => s.uses === "parallel").branches, ["triage[T-1]", "triage[T-2]"]);
    // input given over the scenario's, as --input does.
    const given = await ok("dry_run", { path: file, scenario: "two tickets, one redrafted", input: { queue: "other" } });
    assert.equal(given.inputFrom, "given");
    assert.match(given.output, /billing-eu/, "the handover sample is the scenario's");
    assert.match(given.steps.find((s: any) => s.uses === "ai.generate").user, /"id": "T-1"/);
  });

  test("dry_run: where the run stops, with the step, the expression and the message", async () => {
    const refused = await ok("dry_run", { path: join(EXAMPLES, "release-notes.lwir.json"), scenario: "a grouping result without sections is refused" });
    assert.equal(refused.status, "failed");
    assert.equal(refused.error.step, "group-changes");
    assert.equal(refused.error.at, "output");
    assert.match(refused.error.runtime, /must have required property 'sections'/);
    assert.equal(refused.output, undefined);
    const text = workflowOf([{ id: "hello", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "Hello {{ input.name.length }}" }, output: { mode: "text" } }]);
    const failed = await ok("dry_run", { text, input: { name: "Ada" } });
    assert.equal(failed.status, "failed");
    assert.deepEqual(failed.input, { name: "Ada" });
    assert.equal(failed.inputFrom, "given");
    assert.deepEqual({ ...failed.error, runtime: undefined }, {
      step: "hello", at: "with.prompt", expression: "input.name.length", runtime: undefined,
      message: "Cannot read input.name.length: input.name is a text, which has no properties (len() gives its length).",
    });
    assert.equal(failed.steps[0].error.expression, "input.name.length");
    // Any JSON value is an input; a null one too.
    assert.equal((await ok("dry_run", { text, input: null })).inputFrom, "given");
  });

  test("dry_run: explore lists every combination of decision outcomes and the one that runs out of maxVisits", async () => {
    const file = join(EXAMPLES, "support-triage.lwir.yaml");
    const answer = await ok("dry_run", { path: file, explore: true });
    const cli = cliDry(["run", "--dry", "--explore", file]);
    assert.equal(answer.mode, "explore");
    assert.equal(answer.status, "failed");
    assert.equal(answer.total, cli.paths.length);
    assert.equal(answer.failing, cli.failing.length);
    assert.deepEqual(answer.paths.map((p: any) => p.choices), cli.paths.map((p: any) => p.choices));
    const failing = answer.paths.filter((p: any) => p.status === "failed");
    assert.equal(failing.length, 1);
    assert.equal(failing[0].error.cause, "max_visits_exceeded");
    assert.deepEqual(answer.unreached, []);
    assert.equal(answer.limitReached, false);
    assert.equal(answer.steps, undefined);
  });

  test("dry_run: a long trace comes in pages, long prompts shortened with a flag", async () => {
    const steps = Array.from({ length: 40 }, (_, i) => ({
      id: `s${i}`, uses: "ai.generate", ...(i > 0 ? { needs: [`s${i - 1}`] } : {}),
      with: { model: "gpt-4o-mini", system: "x".repeat(i === 0 ? 5000 : 900), prompt: i > 0 ? `Go on from {{ steps.s${i - 1}.output }}` : "Start" },
      output: { mode: "text" },
    }));
    const text = workflowOf(steps);
    const first = await ok("dry_run", { text });
    assert.equal(first.total, 40);
    assert.ok(first.steps.length < 40 && first.nextCursor !== undefined, `${first.steps.length} steps on the first page`);
    assert.equal(first.steps[0].truncated, true);
    assert.equal(first.steps[0].system.length, 4001);
    assert.equal(first.steps[1].truncated, undefined);
    const seen = [...first.steps];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await ok("dry_run", { text, cursor });
      assert.equal(page.status, "completed");
      seen.push(...page.steps);
      cursor = page.nextCursor;
    }
    assert.deepEqual(seen.map((s: any) => s.path), steps.map((s) => s.id));
    assert.match(await fails("dry_run", { text, cursor: "banana" }), /cursor/);
  });

  test("dry_run: a missing file, text that does not parse, an invalid workflow, an unknown scenario, bad arguments: tool errors", async () => {
    assert.match(await fails("dry_run", { path: join(dir, "missing.lwir.yaml") }), /Cannot read .*missing\.lwir\.yaml: no such file/);
    assert.match(await fails("dry_run", { text: "steps: [", format: "yaml" }), /does not parse at 1:\d+: .*validate tool/);
    assert.match(await fails("dry_run", { path: join(EXAMPLES, "broken-review.lwir.yaml") }), /would not register this workflow: 4 findings/);
    assert.match(await fails("dry_run", { path: join(EXAMPLES, "support-triage.lwir.yaml"), scenario: "nope" }), /no scenario named "nope" \(it has "two tickets, one redrafted", /);
    assert.match(await fails("dry_run", { text: readFileSync(join(EXAMPLES, "release-notes.lwir.json"), "utf8"), scenario: "two pull requests" }), /give path/);
    copyFileSync(join(EXAMPLES, "release-notes.lwir.json"), join(dir, "alone.lwir.json"));
    assert.match(await fails("dry_run", { path: "alone.lwir.json", scenario: "x" }), /no scenarios file beside it \(alone\.lwir\.test\.yaml/);
    assert.match(await fails("dry_run", { path: EXAMPLES }), /is a folder/);
    assert.match(await fails("dry_run", { path: "a", text: "b" }), /not both/);
    assert.match(await fails("dry_run", { text: "a: 1", explore: "yes" }), /explore/);
    assert.match(await fails("dry_run", { text: "a: 1", scenario: 3 }), /scenario/);
    assert.equal((await ok("dry_run", { path: "alone.lwir.json" })).status, "completed", "still answering");
  });

  test("test: the examples' scenarios pass, as lwir test says", async () => {
    const answer = await ok("test", { path: EXAMPLES });
    const cli = cliDry(["test", EXAMPLES]);
    assert.deepEqual({ passed: answer.passed, failed: answer.failed, errors: answer.errors }, cli.summary);
    assert.equal(answer.failed, 0);
    assert.ok(answer.passed >= 5);
    assert.deepEqual(answer.files.map((f: any) => f.file), cli.files.map((f: any) => f.file));
    const scenarios = answer.files.flatMap((f: any) => f.scenarios);
    assert.ok(scenarios.every((s: any) => s.status === "passed" && s.failures.length === 0));
    // A workflow stands for the scenarios file beside it; scenario picks one.
    const one = await ok("test", { path: join(EXAMPLES, "support-triage.lwir.yaml"), scenario: "two tickets, one redrafted" });
    assert.equal(one.passed, 1);
    assert.equal(one.files[0].scenarios[0].run, "completed");
    assert.equal(one.files[0].scenarios[0].steps, 12);
  });

  test("test: a failing expectation says what was expected, what happened, and its line in the scenarios file", async () => {
    copyFileSync(join(EXAMPLES, "release-notes.lwir.json"), join(dir, "notes.lwir.json"));
    const scenarios = readFileSync(join(EXAMPLES, "release-notes.lwir.test.yaml"), "utf8")
      .replace("steps: [list-merged, group-changes, write-notes]", "steps: [list-merged, write-notes]")
      .replace("message: must have required property 'sections'", "message: must have required property 'groups'");
    writeFileSync(join(dir, "notes.lwir.test.yaml"), scenarios);
    const answer = await ok("test", { path: "notes.lwir.test.yaml" });
    assert.equal(answer.failed, 2);
    assert.equal(answer.passed, 0);
    const [steps, error] = answer.files[0].scenarios;
    assert.equal(steps.status, "failed");
    const lines = scenarios.split("\n");
    assert.deepEqual(steps.failures.map((f: any) => [f.what, f.line, f.expected, f.actual]),
      [["expect.steps", lines.findIndex((l) => l.includes("steps: [list-merged, write-notes]")) + 1, ["list-merged", "write-notes"], ["list-merged", "group-changes", "write-notes"]]]);
    assert.equal(error.failures[0].what, "expect.error");
    assert.equal(error.failures[0].message, "the error message differs");
    assert.equal(error.failures[0].line, lines.findIndex((l) => /^\s+error:$/.test(l)) + 1);
    assert.equal(error.failures[0].actual.step, "group-changes");
    const cli = cliDry(["test", "notes.lwir.test.yaml"], dir);
    assert.deepEqual(answer.files[0].scenarios.map((s: any) => s.failures.map((f: any) => f.line)), cli.files[0].scenarios.map((s: any) => s.failures.map((f: any) => f.line)));
  });

  test("test: a path that does not exist, a folder without scenarios, a workflow without one, an unknown scenario: tool errors", async () => {
    assert.match(await fails("test", { path: join(dir, "nothing-here") }), /no such file/);
    assert.match(await fails("test", {}), /path/);
    const empty = mkdtempSync(join(dir, "empty-"));
    assert.match(await fails("test", { path: empty }), /no \*\.lwir\.test\.yaml/);
    copyFileSync(join(EXAMPLES, "release-notes.lwir.json"), join(dir, "lonely.lwir.json"));
    assert.match(await fails("test", { path: "lonely.lwir.json" }), /no scenarios file beside it/);
    assert.match(await fails("test", { path: EXAMPLES, scenario: "no such scenario" }), /No scenario is named "no such scenario"/);
    // A scenarios file whose workflow has findings: an answer with the file's error, counted.
    writeFileSync(join(dir, "bad.lwir.yaml"), readFileSync(join(EXAMPLES, "broken-review.lwir.yaml")));
    writeFileSync(join(dir, "bad.lwir.test.yaml"), "scenarios:\n  - name: one\n");
    const bad = await ok("test", { path: "bad.lwir.test.yaml" });
    assert.equal(bad.errors, 1);
    assert.match(bad.files[0].error, /findings: the runtime would not register it/);
  });

  test("resources: the authoring reference and a page for every rule", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes("lwir://reference"));
    assert.ok(uris.includes("lwir://rules/step.missing_dependency"));
    assert.ok(uris.filter((u) => u.startsWith("lwir://rules/")).length >= 70, `${uris.length} resources`);
    const reference = await client.readResource({ uri: "lwir://reference" });
    assert.equal((reference.contents[0] as { text: string }).text, readFileSync("docs/lwir-reference.md", "utf8"));
    const rule = await client.readResource({ uri: "lwir://rules/lwir.yaml_unquoted_template" });
    assert.equal((rule.contents[0] as { text: string }).text, readFileSync("docs/rules/lwir.yaml_unquoted_template.md", "utf8"));
    await assert.rejects(client.readResource({ uri: "lwir://rules/no.such_code" }));
  });

  test("the answers stay compact (what docs/agents.md says of their size)", () => {
    const byTool = new Map<string, number[]>();
    for (const s of sizes) byTool.set(s.tool, [...(byTool.get(s.tool) ?? []), s.bytes]);
    // A typical validate answer of an example file stays within a few kilobytes: a finding is one line.
    const validate = byTool.get("validate") ?? [];
    assert.ok(validate.length > 0);
    assert.ok(Math.min(...validate) < 1000, `smallest validate answer ${Math.min(...validate)} bytes`);
    // A dry run of an example and the test of the examples' scenarios stay within a few kilobytes too.
    assert.ok(Math.min(...byTool.get("dry_run")!) < 2000, `smallest dry_run answer ${Math.min(...byTool.get("dry_run")!)} bytes`);
    assert.ok(Math.min(...byTool.get("test")!) < 3000, `smallest test answer ${Math.min(...byTool.get("test")!)} bytes`);
    if (process.env.LWIR_MCP_SIZES) console.log(JSON.stringify(sizes));
  });
});
