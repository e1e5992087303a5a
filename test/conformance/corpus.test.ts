// The built CLI against the labelled corpora in test/corpus, through our conformance runner
// (scripts/conformance.mjs): every case exact, every range inside its node, every syntax case a parse error.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { CONFORMANCE, REALWORLD } from "../corpus";

const RUNNER = "scripts/conformance.mjs";
const CLI = "dist/cli.js";

interface FolderResult {
  folder: string; labelled: number; exact: number; versionIds: number; versionIdsOk: number;
  ranges: number; rangesOk: number; syntax: number; syntaxOk: number; failures: string[];
}

function run(folder: string): { status: number | null; result: FolderResult; output: string } {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const res = spawnSync(process.execPath, [RUNNER, "--json", "--cli", `node ${CLI}`, folder], { encoding: "utf8", maxBuffer: 1 << 28 });
  const report = JSON.parse(res.stdout) as { pass: boolean; folders: FolderResult[] };
  assert.equal(report.folders.length, 1);
  return { status: res.status, result: report.folders[0], output: res.stderr };
}

describe("conformance corpora, through the CLI", () => {
  // exact sizes: a folder that lost cases fails here rather than passing on fewer
  for (const [folder, labelled, syntax] of [[CONFORMANCE, 354, 14], [REALWORLD, 46, 0]] as const) {
    test(`${relative(process.cwd(), folder)}: every case exact`, () => {
      const { status, result } = run(folder);
      const failures = result.failures.join("\n");
      assert.equal(result.labelled, labelled, `labelled cases\n${failures}`);
      assert.equal(result.syntax, syntax, `syntax cases\n${failures}`);
      assert.deepEqual(result.failures, []);
      assert.equal(result.exact, labelled);
      assert.equal(result.versionIdsOk, result.versionIds);
      assert.equal(result.rangesOk, result.ranges);
      assert.ok(result.ranges > 0, "no finding ranges were checked");
      assert.equal(result.syntaxOk, syntax);
      assert.equal(status, 0);
    });
  }
});
