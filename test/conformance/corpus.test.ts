// The built CLI against the shared labelled corpora, through the project's own checker
// (../shared/conformance/check.mjs): every case exact, every range inside its node.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHECK = "../shared/conformance/check.mjs";
const CLI = "dist/cli.js";

function check(corpus: string) {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  assert.ok(existsSync(CHECK), `${CHECK} is missing`);
  const res = spawnSync(process.execPath, [CHECK, "--cli", `node ${CLI}`, corpus], { encoding: "utf8", maxBuffer: 1 << 28 });
  const lines = res.stdout.trimEnd().split("\n");
  return { status: res.status, output: res.stdout + res.stderr, summary: lines.at(-1) ?? "" };
}

describe("conformance corpora", () => {
  for (const corpus of ["../shared/conformance", "../shared/realworld"]) {
    test(`${corpus}: every case exact`, () => {
      const { status, output, summary } = check(corpus);
      const m = /^conformance: (\d+)\/(\d+) cases exact, (\d+)\/(\d+) version ids, (\d+)\/(\d+) ranges inside their node, (\d+)\/(\d+) syntax cases$/.exec(summary);
      assert.ok(m, `unexpected summary line:\n${output.slice(-3000)}`);
      assert.equal(m[1], m[2], `cases exact:\n${output.slice(-3000)}`);
      assert.equal(m[3], m[4], `version ids:\n${output.slice(-3000)}`);
      assert.equal(m[5], m[6], `ranges:\n${output.slice(-3000)}`);
      assert.equal(m[7], m[8], `syntax cases:\n${output.slice(-3000)}`);
      assert.ok(Number(m[2]) > 0, "no cases were checked");
      assert.equal(status, 0, output.slice(-3000));
    });
  }
});
