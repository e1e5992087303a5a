// Every labelled case of the conformance corpus and the real-world corpus (test/corpus), run through the
// library (parse with positions → validate → WorkflowVersion), must reproduce its label exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { analyzeText } from "../../server/src/service/analysis";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases } from "../corpus";

const key = (f: { code: string; path: string }) => `${f.path} ${f.code}`;

for (const [corpus, expectedCount] of [[CONFORMANCE, 354 + 14], [REALWORLD, 46]] as const) {
  // corpusCases fails unless each folder holds exactly its number of cases
  const all = corpus === CONFORMANCE ? [...corpusCases(CONFORMANCE), ...corpusCases(SYNTAX)] : corpusCases(corpus);
  test(`${relative(process.cwd(), corpus)}: has the expected number of cases`, () => assert.equal(all.length, expectedCount));
  test(`${relative(process.cwd(), corpus)}: every label reproduced exactly`, () => {
    const failures: string[] = [];
    for (const c of all) {
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      if (c.label.parseError) {
        if (analysis.document.parseErrors.length === 0 || analysis.findings.length > 0 || analysis.valid) failures.push(`${c.name}: expected a parse error only`);
        continue;
      }
      if (analysis.document.parseErrors.length > 0) {
        failures.push(`${c.name}: unexpected parse error ${analysis.document.parseErrors[0].message}`);
        continue;
      }
      const want = c.label.findings.map(key).sort();
      const have = analysis.findings.map(key).sort();
      if (JSON.stringify(want) !== JSON.stringify(have)) failures.push(`${c.name}:\n  want ${want.join(", ")}\n  have ${have.join(", ")}`);
      if (analysis.valid !== c.label.valid) failures.push(`${c.name}: valid ${analysis.valid}, label ${c.label.valid}`);
      if ((analysis.workflowVersion?.id ?? null) !== c.label.workflowVersionId) {
        failures.push(`${c.name}: workflowVersion ${analysis.workflowVersion?.id} != ${c.label.workflowVersionId}`);
      }
    }
    assert.deepEqual(failures, []);
  });
}
