// `lwir mcp`'s tools answered by the Node language server (node.ts registers AGENT_TOOL_REQUEST), for VS
// Code's Language Model Tools (client/src/languageModelTools.ts): the client sends the editor's text of the
// document, so an agent sees the unsaved edits a person sees. The same answers as `lwir mcp` (tools.ts);
// the server reads no file for them and writes none (the client applies `fix`'s edits in the editor).
import type { AgentToolParams, AgentToolResult } from "../protocol";
import { completeTool, explainTool, fixTool, graphTool, ToolError, validateTool } from "./tools";

const TOOLS = {
  validate: validateTool,
  fix: fixTool,
  explain: explainTool,
  graph: graphTool,
  complete: completeTool,
} as const;

export function answerAgentTool(params: unknown): AgentToolResult {
  const p = (typeof params === "object" && params !== null ? params : {}) as Partial<AgentToolParams>;
  const tool = typeof p.tool === "string" && Object.hasOwn(TOOLS, p.tool) ? TOOLS[p.tool] : undefined;
  if (!tool) return { error: `Unknown tool ${JSON.stringify(p.tool)}: validate, fix, explain, graph or complete.` };
  const input = typeof p.input === "object" && p.input !== null ? { ...p.input } : {};
  // Text only: what the editor holds, never a file the server would read or write.
  if ("path" in input || input.write === true) return { error: "The language server answers for text the editor sends, not for a path." };
  try {
    return { answer: { ...(tool as (input: unknown) => object)(input) } };
  } catch (error) {
    return { error: error instanceof ToolError ? error.message : `LWIR Tools failed on this request: ${error instanceof Error ? error.message : String(error)}` };
  }
}
