// `lwir mcp`'s tools answered by the Node language server (node.ts registers AGENT_TOOL_REQUEST), for VS
// Code's Language Model Tools (client/src/languageModelTools.ts): the client sends the editor's text of the
// document, so an agent sees the unsaved edits a person sees. The same answers as `lwir mcp` (tools.ts).
// The server writes no file for them (the client applies `fix`'s edits in the editor) and reads none, but
// for the dry runs: `dry_run` reads the scenarios file beside the document and `test` the scenarios files
// and workflows of a path, each as the editor holds it when the client sent its text, else from the disk.
import type { AgentToolParams, AgentToolResult } from "../protocol";
import { completeTool, dryRunTool, explainTool, fixTool, graphTool, testTool, ToolError, validateTool, type AgentFiles } from "./tools";

const TOOLS: Record<string, (input: never, files: AgentFiles) => object> = {
  validate: validateTool,
  fix: fixTool,
  explain: explainTool,
  graph: graphTool,
  complete: completeTool,
  dry_run: dryRunTool,
  test: testTool,
};

export function answerAgentTool(params: unknown): AgentToolResult {
  const p = (typeof params === "object" && params !== null ? params : {}) as Partial<AgentToolParams>;
  const tool = typeof p.tool === "string" && Object.hasOwn(TOOLS, p.tool) ? TOOLS[p.tool] : undefined;
  if (!tool) return { error: `Unknown tool ${JSON.stringify(p.tool)}: ${Object.keys(TOOLS).join(", ")}.` };
  const input = typeof p.input === "object" && p.input !== null ? { ...p.input } : {};
  // Text only: what the editor holds, never a file the server would write; test alone takes a path (of scenarios files).
  if (p.tool === "test" ? typeof input.path !== "string" : "path" in input || input.write === true) {
    return { error: p.tool === "test" ? "test needs path: a scenarios file, a workflow or a folder." : "The language server answers for text the editor sends, not for a path." };
  }
  const texts = typeof p.texts === "object" && p.texts !== null ? new Map(Object.entries(p.texts).filter(([, t]) => typeof t === "string")) : undefined;
  const files: AgentFiles = { ...(typeof p.file === "string" && p.file !== "" ? { file: p.file } : {}), ...(texts ? { texts } : {}) };
  try {
    return { answer: { ...tool(input as never, files) } };
  } catch (error) {
    return { error: error instanceof ToolError ? error.message : `LWIR Tools failed on this request: ${error instanceof Error ? error.message : String(error)}` };
  }
}
