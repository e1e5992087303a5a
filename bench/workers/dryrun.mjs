// Series 6, the dry run (issue 24): the dry run of a generated workflow with generated samples and input,
// next to text → diagnostics of the same document (the "floor" of this series: the figure is their ratio),
// timed in the same rounds; and explore (every decision outcome, at most 1,000 paths) likewise.
//
// The generator's workflows fail at run time within a few steps, for two reasons of the generator's own
// (see docs/benchmark.md): fan-in envelopes declared with status "succeeded" (the runtime writes
// "completed"), and loop prompts that read steps.X.allVisits / lastOutput on the first pass outside
// coalesce. Both are patched in the text before measuring, and every decision takes its first case, so the
// dry run goes through the whole document; the steps run are reported with the figure.
import { args, emit, interleave, readWorkload, require, summarize, timedSync } from "../lib.mjs";

const ours = require("./tmp/ours.cjs");
const a = args();
const text = readWorkload(a.file)
  .replace(/"succeeded"/g, '"completed"')
  .replace(/\{\{ (steps\.[\w-]+\.(?:allVisits|lastOutput)[\w.[\]-]*) \}\}/g, '{{ coalesce($1, \\"none\\") }}');
const uri = `file:///bench/w.lwir.${a.format}`;
const diagnostics = () => ours.toDiagnostics(ours.analyzeText(text, a.format), { uri, relatedInformation: true });
const value = ours.analyzeText(text, a.format).document.value;
const input = ours.generatedInput(value);
const first = (_path, targets) => targets[0];
const trace = ours.simulate(value, { input, choose: first });
if (trace.status !== "completed") throw new Error(`the dry run stopped at ${trace.error?.stepPath}: ${trace.error?.message}`);
const subjects = a.raw.explore === "yes"
  ? { explore: () => timedSync(() => ours.explore(value, { input })) }
  : { dry: () => timedSync(() => ours.simulate(value, { input, choose: first })) };
const { results, floorSamples } = await interleave({ warmup: a.warmup, iterations: a.iterations, subjects, floor: () => timedSync(diagnostics) });
if (a.raw.explore === "yes") {
  const x = ours.explore(value, { input });
  const decisions = (value.steps ?? []).filter((s) => s.uses === "decision").length;
  emit([summarize("dry run --explore (every decision outcome, at most 1,000 paths)", "ours", a.format, a.steps, results.explore, "text → diagnostics", floorSamples,
    { paths: x.paths.length, truncated: x.truncated, top_level_decisions: decisions })]);
} else {
  emit([summarize("dry run, generated samples (each decision its first case)", "ours", a.format, a.steps, results.dry, "text → diagnostics", floorSamples, { step_runs: trace.steps.length })]);
}
