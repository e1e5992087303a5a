// Series 5, the workflow graph (issue 15): graph model (buildGraph from the parsed value and findings),
// layout (dagre, as the product; elkjs beside it for the comparison in docs/graph.md), model + layout,
// and an edit that changes no edge: model + graphShapeKey, the layout reused. Each next to the floor,
// yaml parseDocument of the same document (its YAML rendering), timed in the same rounds.
import { FLOOR, args, emit, interleave, readWorkload, require, summarize, timed, timedSync } from "../lib.mjs";
import { elkLayout } from "../graph-elk.mjs";

const ours = require("./tmp/ours.cjs");
const a = args();
const text = readWorkload(a.file);
const floor = FLOOR.yaml;
const analysis = ours.analyzeText(text, a.format);
const value = analysis.document.value;
const findings = analysis.findings;
const graph = ours.buildGraph(value, { findings });
const key = ours.graphShapeKey(graph);
const withElk = a.raw.elk !== "no";

const subjects = {
  model: () => timedSync(() => ours.buildGraph(value, { findings })),
  layout: () => timedSync(() => ours.layoutGraph(graph)),
  both: () => timedSync(() => ours.layoutGraph(ours.buildGraph(value, { findings }))),
  // an edit that changes no edge: the view rebuilds the model, sees the same shape and keeps its layout
  unchanged: () => timedSync(() => {
    const next = ours.buildGraph(value, { findings });
    if (ours.graphShapeKey(next) !== key) throw new Error("shape key changed on the same document");
  }),
};
if (withElk) subjects.elk = () => timed(() => elkLayout(graph, ours));

const { results, floorSamples } = await interleave({
  warmup: a.warmup,
  iterations: a.iterations,
  subjects,
  floor: () => timedSync(() => floor.run(text)),
});
const extra = { nodes: graph.nodes.length, edges: graph.edges.length };
const out = [
  summarize("graph model (buildGraph)", "ours", a.format, a.steps, results.model, floor.name, floorSamples, extra),
  summarize("graph layout (dagre)", "ours", a.format, a.steps, results.layout, floor.name, floorSamples, extra),
  summarize("graph model + layout", "ours", a.format, a.steps, results.both, floor.name, floorSamples, extra),
  summarize("graph after an edit that changes no edge (model + shape key, layout reused)", "ours", a.format, a.steps, results.unchanged, floor.name, floorSamples, extra),
];
if (withElk) out.push(summarize("graph layout (elkjs, for comparison)", "elkjs", a.format, a.steps, results.elk, floor.name, floorSamples, extra));
emit(out);
