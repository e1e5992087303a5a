// dist/graph-layout-worker.js: the Node server's graph layout thread (graph/workerLayouter.ts). Lays out
// each graph it is sent, in order, and answers {id, layout} or {id, error}; never touches anything else.
import { parentPort } from "node:worker_threads";
import { layoutGraph } from "./graph/layout";
import type { WorkflowGraph } from "./graph/model";
import type { LayoutReply } from "./graph/workerLayouter";

parentPort?.on("message", ({ id, graph }: { id: number; graph: WorkflowGraph }) => {
  let reply: LayoutReply;
  try {
    reply = { id, layout: layoutGraph(graph) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
