// Every labelled case of the shared conformance corpus and the real-world corpus, run through the
// library (parse with positions → validate → WorkflowVersion), must reproduce its label exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { analyzeText } from "../../server/src/service/analysis";

interface Label {
  findings: { code: string; path: string }[];
  valid: boolean;
  workflowVersionId: string | null;
  parseError?: boolean;
}

function cases(dir: string): { name: string; file: string; format: "json" | "yaml"; label: Label }[] {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) { out.push(...cases(full)); continue; }
    const m = /^(.*)\.lwir\.(json|yaml|yml)$/.exec(name);
    if (!m) continue;
    const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as Label;
    out.push({ name: full, file: full, format: m[2] === "json" ? "json" as const : "yaml" as const, label });
  }
  return out;
}

const key = (f: { code: string; path: string }) => `${f.path} ${f.code}`;

for (const [corpus, expectedCount] of [["../shared/conformance", 368], ["../shared/realworld", 46]] as const) {
  const dir = resolve(process.cwd(), corpus);
  const all = cases(dir);
  test(`${corpus}: has the expected number of cases`, () => assert.equal(all.length, expectedCount));
  test(`${corpus}: every label reproduced exactly`, () => {
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
