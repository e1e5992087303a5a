// The workflow graph of an analysis, for the editor's graph view: the model of server/src/graph with
// the analysis' findings on its steps and each step's range in the text (for reveal and highlight).
import { buildGraph, type WorkflowGraph } from "../graph/model";
import type { Analysis } from "./analysis";

/** undefined while the text does not parse (the view keeps its last graph then). */
export function graphOfAnalysis(analysis: Analysis): WorkflowGraph | undefined {
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || doc.tooDeep) return undefined;
  return buildGraph(doc.value, { findings: analysis.findings, rangeOf: (segments) => doc.findingRange(segments) });
}
