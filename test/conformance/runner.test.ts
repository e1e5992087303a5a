// scripts/conformance.mjs must fail whenever a case does not match: a label altered in any of its parts,
// a range outside its node, an unlabelled document, an empty or missing folder. Each test builds a small
// folder of cases copied from test/corpus and runs the runner with the built CLI (or a stand-in command).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REALWORLD, SYNTAX } from "../corpus";

const RUNNER = join(process.cwd(), "scripts", "conformance.mjs");
const CLI = `node ${join(process.cwd(), "dist", "cli.js")}`;
const VALID = "demo-hiring-post-lwir-example"; // valid, in JSON and YAML
const INVALID = "demo-sp500-investor-report"; // one parallel.invalid_cardinality, in JSON and YAML

let dir: string;
let n = 0;

/** A fresh folder holding these cases (stem, source folder); returns its path. */
function folder(stems: Array<[string, string]>, edit?: (label: Record<string, unknown>, stem: string) => void): string {
  const d = join(dir, `case-${++n}`);
  mkdirSync(d);
  for (const [stem, from] of stems) {
    for (const ext of [".lwir.json", ".lwir.yaml"]) {
      try { copyFileSync(join(from, stem + ext), join(d, stem + ext)); } catch { /* not every case has both formats */ }
    }
    const label = JSON.parse(readFileSync(join(from, `${stem}.expected.json`), "utf8")) as Record<string, unknown>;
    edit?.(label, stem);
    writeFileSync(join(d, `${stem}.expected.json`), JSON.stringify(label));
  }
  return d;
}

function run(folders: string[], cli = CLI) {
  const r = spawnSync(process.execPath, [RUNNER, "--cli", cli, ...folders], { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

before(() => { dir = mkdtempSync(join(tmpdir(), "lwir-conformance-")); });
after(() => rmSync(dir, { recursive: true, force: true }));

describe("conformance runner", () => {
  test("passes cases whose labels match (labelled and syntax)", () => {
    const r = run([folder([[VALID, REALWORLD], [INVALID, REALWORLD], ["json--truncated", SYNTAX]])]);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /ok {3}\S+: 4\/4 cases exact, 2\/2 version ids, 2\/2 ranges inside their node, 1\/1 syntax cases/);
  });

  const alterations: Array<[string, string, (label: Record<string, unknown>) => void]> = [
    ["a finding's path", INVALID, (l) => { (l.findings as Array<{ path: string }>)[0].path = "$.steps[0].with.cardinality.kind"; }],
    ["a finding's code", INVALID, (l) => { (l.findings as Array<{ code: string }>)[0].code = "parallel.invalid_items"; }],
    ["one finding too many (a multiset)", INVALID, (l) => { (l.findings as unknown[]).push((l.findings as unknown[])[0]); }],
    ["validity", VALID, (l) => { l.valid = false; }],
    ["the WorkflowVersion id", VALID, (l) => { l.workflowVersionId = "wfver_0000000000000000"; }],
    ["a labelled case marked as a syntax case", VALID, (l) => { l.parseError = true; }],
  ];
  for (const [what, stem, alter] of alterations) {
    test(`fails when the label has a wrong ${what}`, () => {
      const r = run([folder([[stem, REALWORLD]], alter)]);
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, new RegExp(`${stem}\\.lwir\\.(json|yaml)`));
      assert.match(r.out, /conformance: FAIL/);
    });
  }

  test("fails when a syntax case is not reported as a parse error", () => {
    const d = folder([[VALID, REALWORLD]], (l) => { l.parseError = true; l.valid = false; l.workflowVersionId = null; });
    const r = run([d]);
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /expected a parse error/);
  });

  test("fails when a finding's range lies outside the node its path names", () => {
    // a stand-in command that reports the labels exactly, but every range at the start of the file
    const fake = join(dir, "fake-cli.mjs");
    writeFileSync(fake, `import { readFileSync } from "node:fs";
const files = process.argv.slice(2).filter((a) => /\\.lwir\\./.test(a)).map((file) => {
  const label = JSON.parse(readFileSync(file.replace(/\\.lwir\\.(json|yaml)$/, ".expected.json"), "utf8"));
  const at = { line: 0, character: 0 };
  return { file, parseErrors: [], findings: label.findings.map((f) => ({ ...f, range: { start: at, end: at } })), valid: label.valid,
    workflowVersion: label.workflowVersionId ? { id: label.workflowVersionId } : null };
});
console.log(JSON.stringify({ files }));
`);
    const r = run([folder([[INVALID, REALWORLD]])], `node ${fake}`);
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /outside \$\.steps\[1\]\.with\.cardinality\.kind/);
    assert.match(r.out, /0\/2 ranges inside their node/);
  });

  test("fails on an empty folder, a missing folder and an unlabelled document", () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const r1 = run([empty]);
    assert.equal(r1.status, 1, r1.out);
    assert.match(r1.out, /no labelled cases/);
    const r2 = run([join(dir, "no-such-folder")]);
    assert.equal(r2.status, 1, r2.out);
    const d = folder([[VALID, REALWORLD]]);
    writeFileSync(join(d, "stray.lwir.json"), "{}");
    const r3 = run([d]);
    assert.equal(r3.status, 1, r3.out);
    assert.match(r3.out, /stray\.lwir\.json: no label/);
  });

  test("fails when any one of several folders fails", () => {
    const good = folder([[VALID, REALWORLD]]);
    const bad = folder([[VALID, REALWORLD]], (l) => { l.valid = false; });
    const r = run([good, bad]);
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /conformance: FAIL \(1\/2 folders\)/);
  });
});
