// `lwir validate` reads a file as a string in one call when it can (cli/check.ts: checkFile's fast path)
// and falls back to the bytes otherwise. Whatever a file holds, the report must be the one the byte path
// (checkBytes on the file's bytes, what checkFile did before) gives.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkBytes, checkFile, isFailure } from "../../server/src/cli/check";

const dir = mkdtempSync(join(tmpdir(), "lwir-cli-read-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID_JSON = readFileSync("test/corpus/realworld/demo-delegated-candidates-stub.lwir.json", "utf8");

const utf8 = (s: string) => Buffer.from(s, "utf8");
const CASES: Record<string, Buffer> = {
  "valid.lwir.json": utf8(VALID_JSON),
  "bom.lwir.json": utf8("\uFEFF" + VALID_JSON),
  "bom.lwir.yaml": utf8("\uFEFFapiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n"),
  "bom2.lwir.yaml": utf8("\uFEFF\uFEFFapiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n"),
  "latin1.lwir.yaml": Buffer.concat([utf8("kind: Workflow\nmetadata: { name: caf"), Buffer.from([0xe9]), utf8(" }\n")]),
  // U+FFFD written on purpose (valid UTF-8): the fast path hands it to the byte path, which accepts it
  "replacement-char.lwir.yaml": utf8("apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata: { name: \"a\uFFFDb\" }\n"),
  "invalid-utf8.lwir.json": Buffer.concat([utf8('{"kind": "'), Buffer.from([0xc3, 0x28]), utf8('"}')]),
  "utf16.lwir.json": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"kind": "Workflow"}', "utf16le")]),
  "nul.lwir.yaml": Buffer.concat([utf8("kind: Workflow\n# "), Buffer.from([0]), utf8("\n")]),
  "unparsable.lwir.json": utf8('{"kind": '),
  "no-extension": utf8("kind: Workflow\n"),
};

describe("checkFile reads text as the byte path does", () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    test(name, () => {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const viaFile = checkFile(file);
      assert.ok(!isFailure(viaFile), `${name}: not a failure`);
      assert.deepEqual(viaFile, checkBytes(file, readFileSync(file)));
    });
  }

  test("the cases reach both paths: bytes read as the runtime reads them and warned about, a written U+FFFD is kept", () => {
    // A named file is read whatever its bytes (Node's "utf8", as the runtime): 0xC3 0x28 is U+FFFD then "(".
    const invalid = checkFile(join(dir, "invalid-utf8.lwir.json"));
    assert.ok(!isFailure(invalid));
    assert.deepEqual(invalid.parseErrors, []);
    assert.deepEqual(invalid.notices?.map((n) => [n.code, n.severity, n.range]), [
      ["lwir.invalid_utf8", "warning", { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }],
    ]);
    assert.match(invalid.notices![0].message, /^Byte 0xC3 is not UTF-8/);
    const nul = checkFile(join(dir, "nul.lwir.yaml"));
    assert.ok(!isFailure(nul));
    assert.deepEqual(nul.parseErrors, []);
    assert.deepEqual(nul.notices?.map((n) => [n.code, n.range.start]), [["lwir.nul_byte", { line: 1, character: 2 }]]);
    // Found in a folder (binary: "skip"), a file with NUL bytes is skipped as binary, as before.
    const skipped = checkFile(join(dir, "nul.lwir.yaml"), { binary: "skip" });
    assert.ok(!isFailure(skipped) && skipped.parseErrors[0]?.message === "binary file" && skipped.notices?.length === 0);
    const kept = checkFile(join(dir, "replacement-char.lwir.yaml"));
    assert.ok(!isFailure(kept) && kept.parseErrors.length === 0 && kept.notices?.length === 0);
  });

  test("two byte-order marks in YAML: the runtime's yaml drops one and reads the other into the first key", () => {
    const file = join(dir, "bom2.lwir.yaml");
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), readFileSync("test/fixtures/cli/tree/valid.lwir.yaml")]));
    const report = checkFile(file);
    assert.ok(!isFailure(report));
    assert.deepEqual(report.findings.map((f) => [f.code, f.path, f.range.start]), [["schema.invalid", "$.apiVersion", { line: 0, character: 0 }]]);
    assert.deepEqual(report, checkBytes(file, readFileSync(file)));
  });

  test("an unreadable path is the same failure as before", () => {
    const missing = join(dir, "missing.lwir.json");
    assert.deepEqual(checkFile(missing), { path: missing, reason: "no such file or folder", kind: "unreadable" });
    assert.deepEqual(checkFile(dir), { path: dir, reason: "is a folder", kind: "unreadable" });
  });
});
