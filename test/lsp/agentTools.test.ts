// lwir/agentTool through the built Node server (dist/server.js, `npm run build` first): the request VS Code's
// Language Model Tools send (client/src/languageModelTools.ts) with the editor's text, answered as lwir mcp's
// tools answer; tool errors as answers, and the server keeps serving.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { AGENT_TOOL_REQUEST, type AgentToolResult } from "../../server/src/protocol";
import { LspClient } from "./harness";

describe("lwir/agentTool over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false }); });
  after(() => client.stop());

  test("validate and fix on text with unsaved edits: the answers are about that text", async () => {
    const text = readFileSync(join("examples", "support-triage.lwir.yaml"), "utf8").replace('queue: "{{ input.queue }}"', "queue: {{ input.queue }}");
    const validated: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "validate", input: { text, format: "yaml" } });
    assert.equal(validated.error, undefined);
    const findings = validated.answer!.findings as Array<{ code: string; origin: string }>;
    assert.deepEqual(findings.map((f) => [f.code, f.origin]), [["lwir.yaml_unquoted_template", "lwir"]]);
    const fixed: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "fix", input: { text, format: "yaml" } });
    assert.equal(fixed.answer!.text, readFileSync(join("examples", "support-triage.lwir.yaml"), "utf8"));
  });

  test("a tool error is an answer, not a failure of the server", async () => {
    const bad: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "explain", input: { code: "no.such" } });
    assert.match(bad.error ?? "", /No rule has the code/);
    const unknown: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "rm", input: {} });
    assert.match(unknown.error ?? "", /Unknown tool/);
    const graph: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "graph", input: { text: readFileSync(join("examples", "release-notes.lwir.json"), "utf8") } });
    assert.match(String(graph.answer!.text), /^flowchart/);
  });

  test("dry_run on the editor's text; its scenario from the scenarios file beside the document, unsaved edits of that file included", async () => {
    const file = resolve("examples", "support-triage.lwir.yaml");
    const text = readFileSync(file, "utf8").replace("You are a support engineer.", "You are a careful support engineer.");
    const generated: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "dry_run", input: { text, format: "yaml" } });
    assert.equal(generated.error, undefined);
    const draft = (generated.answer!.steps as Array<{ path: string; system?: string }>).find((s) => s.path.endsWith(".draft.visit[0]"));
    assert.match(draft?.system ?? "", /^You are a careful support engineer\./, "the unsaved text's prompt");
    const scenario = "two tickets, one redrafted";
    const given: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "dry_run", input: { text, format: "yaml", scenario }, file });
    assert.equal(given.answer!.status, "completed");
    assert.equal(given.answer!.output, "Queue billing-eu: 2 tickets (2 billing), none failed, nothing urgent.");
    const scenariosFile = resolve("examples", "support-triage.lwir.test.yaml");
    const unsaved = readFileSync(scenariosFile, "utf8").replaceAll("Queue billing-eu: 2 tickets (2 billing), none failed, nothing urgent.", "All done.");
    const edited: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "dry_run", input: { text, format: "yaml", scenario }, file, texts: { [scenariosFile]: unsaved } });
    assert.equal(edited.answer!.output, "All done.");
    const noFile: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "dry_run", input: { text, format: "yaml", scenario } });
    assert.match(noFile.error ?? "", /give path/);
    const byPath: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "dry_run", input: { path: file } });
    assert.match(byPath.error ?? "", /not for a path/);
  });

  test("test reads the scenarios files of a path, the editor's unsaved texts over the disk's", async () => {
    const folder = resolve("examples");
    const passing: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "test", input: { path: folder } });
    assert.equal(passing.answer!.failed, 0);
    assert.ok((passing.answer!.passed as number) >= 5);
    const scenariosFile = resolve("examples", "release-notes.lwir.test.yaml");
    const unsaved = readFileSync(scenariosFile, "utf8").replace("steps: [list-merged, group-changes, write-notes]", "steps: [list-merged]");
    const failing: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "test", input: { path: scenariosFile }, texts: { [scenariosFile]: unsaved } });
    const scenarios = (failing.answer!.files as Array<{ scenarios: Array<{ status: string; failures: Array<{ what: string; line: number }> }> }>)[0].scenarios;
    assert.deepEqual(scenarios[0].failures.map((f) => [f.what, f.line]), [["expect.steps", unsaved.split("\n").findIndex((l) => l.includes("steps: [list-merged]")) + 1]]);
    const noPath: AgentToolResult = await client.request(AGENT_TOOL_REQUEST, { tool: "test", input: {} });
    assert.match(noPath.error ?? "", /test needs path/);
  });
});
