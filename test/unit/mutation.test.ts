// A quick seeded run of the structure-aware mutation test (test/mutation.ts; the long run is
// test/robust/mutation.test.ts): corpus documents mutated in every name position and value, checked against
// the invariants that need no reference (no crash; JSON and YAML renderings, any key order and any
// incremental edit path give the same findings; every finding's range inside its node).
// Replay one mutant: LWIR_MUTATION_SEED=<seed> LWIR_MUTATION_INDEX=<index> node scripts/run-test.mjs test/unit/mutation.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { CATEGORIES, indexFromEnv, mutantIndexes, runMutations, seedFromEnv } from "../mutation";

/** Mutants in `npm test`: a few thousand, some 10 s of CPU. */
const QUICK_MUTANTS = 2000;
const SEED = seedFromEnv(20_260_013);

test(`mutation: ${QUICK_MUTANTS} mutants of the corpus (seed ${SEED}) keep every invariant`, () => {
  const only = indexFromEnv();
  const { counters, reports, failed } = runMutations(SEED, mutantIndexes(QUICK_MUTANTS), { typedStretch: 24, midAnalyses: 2, yamlRangeShare: 0.3 });
  const skipped = Object.values(counters.skippedYaml).reduce((a, b) => a + b, 0);
  console.log(`mutation: seed ${SEED}, ${counters.mutants} mutants, ${counters.analyses} analyses, ${counters.edits} incremental edits, ` +
    `${failed} failed; JSON ⇄ YAML not compared (YAML reads another value) ${skipped} ${JSON.stringify(counters.skippedYaml)}; ` +
    `JSON rendering lossy (-0) ${counters.jsonLossy}; name positions mutated ${JSON.stringify(counters.categories)}`);
  assert.equal(failed, 0, `${failed} of ${counters.mutants} mutants break an invariant (the first of each kind, shrunk):\n\n${reports.join("\n\n")}`);
  if (only !== undefined) return;
  assert.equal(counters.mutants, QUICK_MUTANTS);
  // the comparison is not skipped quietly: only values YAML reads back differently (-0), and few of them
  assert.deepEqual(Object.keys(counters.skippedYaml).filter((r) => r !== "-0"), [], "skipped for another reason than -0");
  assert.ok(skipped < QUICK_MUTANTS * 0.05, `${skipped} mutants not compared JSON ⇄ YAML`);
  for (const c of CATEGORIES) assert.ok((counters.categories[c] ?? 0) > 0, `no mutant put a name in the ${c} position`);
});
