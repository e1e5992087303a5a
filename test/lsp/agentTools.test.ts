// lwir/agentTool through the built Node server (dist/server.js, `npm run build` first): the request VS Code's
// Language Model Tools send (client/src/languageModelTools.ts) with the editor's text, answered as lwir mcp's
// tools answer; tool errors as answers, and the server keeps serving.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
});
