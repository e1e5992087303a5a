// Who computes a layout for the graph view (service/graph.ts). The Node server hands layouts to a worker
// thread (workerLayouter.ts) so that a 1,000-step layout does not hold up diagnostics and completion; the
// browser server, itself a web worker, and the tests lay out in their own thread.
import { layoutGraph, type GraphLayout } from "./layout";
import type { WorkflowGraph } from "./model";

export interface Layouter {
  layout(graph: WorkflowGraph): Promise<GraphLayout>;
  /** Frees what the layouter holds (a worker thread); later layouts are computed in-thread. */
  dispose?(): void;
}

/** Lays out in the calling thread (still answered through a promise, like the worker). */
export const inThreadLayouter: Layouter = {
  layout: async (graph) => layoutGraph(graph),
};
