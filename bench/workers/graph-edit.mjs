// Issue #26, one graph action on the 1,000-step workflow, in process: `lwir/graphEdit`'s edit computed
// (graphEdit: the action's text edits, with its checks that the edited text parses), applied to the text,
// the edited text analysed again (what the server does with the editor's change) and the graph model
// rebuilt from it (what the view's next lwir/graph answers; the provisional answer reuses the layout, the
// nodes being the same). The action: connect the first step to a step in the second half that does not
// need it (a needs entry added), from the same analysis each round. Also the action's edit alone. Next to
// the floor, yaml parseDocument of the same document, timed in the same rounds.
import { FLOOR, args, emit, interleave, readWorkload, require, summarize, timedSync } from "../lib.mjs";

const ours = require("./tmp/ours.cjs");
const a = args();
const text = readWorkload(a.file);
const floor = FLOOR.yaml;
const analysis = ours.analyzeText(text, a.format);
const graph = ours.buildGraph(analysis.document.value, { findings: analysis.findings });
const steps = graph.nodes.filter((n) => n.kind === "step" && n.scope === "" && !n.problem);
const first = steps[0];
const target = steps.slice(steps.length >> 1).find((s) => !graph.edges.some((e) => e.from === first.id && e.to === s.id) && !s.container);
if (!target) throw new Error("no step to connect the first step to");
const action = { kind: "connect", from: first.id, to: target.id };
const check = ours.graphEdit(analysis, action);
if (!("edits" in check)) throw new Error(`the action is refused: ${check.refused}`);

const subjects = {
  edit: () => timedSync(() => {
    const out = ours.graphEdit(analysis, action);
    if (!("edits" in out)) throw new Error("refused");
  }),
  whole: () => timedSync(() => {
    const out = ours.graphEdit(analysis, action);
    const next = ours.applyEdits(text, out.edits);
    const after = ours.analyzeText(next, a.format);
    const g = ours.buildGraph(after.document.value, { findings: after.findings });
    if (!g.edges.some((e) => e.kind === "needs" && e.from === first.id && e.to === target.id)) throw new Error("the edge is not in the new graph");
  }),
};

const { results, floorSamples } = await interleave({ warmup: a.warmup, iterations: a.iterations, subjects, floor: () => timedSync(() => floor.run(text)) });
const extra = { action: `connect ${first.id} -> ${target.id}` };
emit([
  summarize("graph action: lwir/graphEdit's edit (connect)", "ours", a.format, a.steps, results.edit, floor.name, floorSamples, extra),
  summarize("graph action → edit applied, text analysed, graph model rebuilt (connect)", "ours", a.format, a.steps, results.whole, floor.name, floorSamples, extra),
]);
