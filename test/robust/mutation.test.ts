// The long seeded run of the structure-aware mutation test (test/mutation.ts; `npm test` runs a quick one in
// test/unit/mutation.test.ts): MUTATIONS mutants of the corpus, split over up to two worker threads, each
// checked against the invariants that need no reference (no crash; JSON and YAML renderings, any key order
// and any incremental edit path give the same findings; every finding's range inside its node).
//   LWIR_MUTATIONS=<n>          how many mutants (default MUTATIONS)
//   LWIR_MUTATION_SEED=<seed>   another run's seed (default: test/robust's SEED)
//   LWIR_MUTATION_INDEX=<i>     replay one mutant of the run (what a failure report prints)
import { test } from "node:test";
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { CATEGORIES, addCounters, mutantIndexes, newCounters, runMutations, seedFromEnv, type CheckOptions, type RunResult } from "../mutation";
import { SEED, reportFigures } from "./support";

/** Mutants in the long run: some 5 ms of CPU each, a few minutes on two cores. */
const MUTATIONS = 50_000;
const OPTIONS: CheckOptions = { typedStretch: 40, midAnalyses: 2, yamlRangeShare: 0.3 };

interface Slice {
  seed: number;
  indexes: number[];
}

if (!isMainThread) {
  // a worker: one slice of the run
  const { seed, indexes } = workerData as Slice;
  parentPort!.postMessage(runMutations(seed, indexes, OPTIONS));
} else {
  const raw = Number(process.env.LWIR_MUTATIONS);
  const count = Number.isInteger(raw) && raw > 0 ? raw : MUTATIONS;
  const seed = seedFromEnv(SEED);

  test(`mutation: ${count} mutants of the corpus (seed ${seed}) keep every invariant`, { timeout: 3_600_000 }, async () => {
    const all = mutantIndexes(count);
    const workers = Math.max(1, Math.min(2, availableParallelism(), all.length));
    const slices: Slice[] = Array.from({ length: workers }, (_, w) => ({ seed, indexes: all.filter((_, i) => i % workers === w) }));
    const started = process.hrtime.bigint();
    const results = await Promise.all(slices.map((slice) => new Promise<RunResult>((resolve, reject) => {
      const worker = new Worker(__filename, { workerData: slice });
      worker.once("message", (r: RunResult) => resolve(r));
      worker.once("error", reject);
      worker.once("exit", (code) => { if (code !== 0) reject(new Error(`mutation worker exited with ${code}`)); });
    })));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const counters = newCounters();
    for (const r of results) addCounters(counters, r.counters);
    const failed = results.reduce((n, r) => n + r.failed, 0);
    const reports = results.flatMap((r) => r.reports);
    const skipped = Object.values(counters.skippedYaml).reduce((a, b) => a + b, 0);
    reportFigures("mutation", {
      seed, mutants: counters.mutants, failed, analyses: counters.analyses, incrementalEdits: counters.edits,
      skippedYaml: skipped, skippedYamlReasons: JSON.stringify(counters.skippedYaml), jsonLossy: counters.jsonLossy,
      workers, seconds: seconds.toFixed(0),
    });
    assert.equal(failed, 0, `${failed} of ${counters.mutants} mutants break an invariant (the first of each kind, shrunk):\n\n${reports.join("\n\n")}`);
    if (all.length === 1) return;
    assert.equal(counters.mutants, count);
    assert.deepEqual(Object.keys(counters.skippedYaml).filter((r) => r !== "-0"), [], "skipped for another reason than -0");
    assert.ok(skipped < count * 0.05, `${skipped} mutants not compared JSON ⇄ YAML`);
    for (const c of CATEGORIES) assert.ok((counters.categories[c] ?? 0) > 0, `no mutant put a name in the ${c} position`);
  });
}
