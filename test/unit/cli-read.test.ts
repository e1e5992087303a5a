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
  // U+FFFD written on purpose (valid UTF-8): the fast path hands it to the byte path, which accepts it
  "replacement-char.lwir.yaml": utf8("apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata: { name: \"a\uFFFDb\" }\n"),
  "invalid-utf8.lwir.json": Buffer.concat([utf8('{"kind": "'), Buffer.from([0xc3, 0x28]), utf8('"}')]),
  "utf16.lwir.json": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"kind": "Workflow"}', "utf16le")]),
  "nul.lwir.yaml": Buffer.concat([utf8("kind: Workflow\n"), Buffer.from([0]), utf8("\n")]),
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

  test("the cases reach both paths: undecodable bytes are reported, a written U+FFFD is kept", () => {
    const invalid = checkFile(join(dir, "invalid-utf8.lwir.json"));
    assert.ok(!isFailure(invalid) && invalid.parseErrors[0]?.message === "not UTF-8 text");
    const nul = checkFile(join(dir, "nul.lwir.yaml"));
    assert.ok(!isFailure(nul) && nul.parseErrors[0]?.message === "binary file");
    const kept = checkFile(join(dir, "replacement-char.lwir.yaml"));
    assert.ok(!isFailure(kept) && kept.parseErrors.length === 0);
  });

  test("an unreadable path is the same failure as before", () => {
    const missing = join(dir, "missing.lwir.json");
    assert.deepEqual(checkFile(missing), { path: missing, reason: "no such file or folder", kind: "unreadable" });
    assert.deepEqual(checkFile(dir), { path: dir, reason: "is a folder", kind: "unreadable" });
  });
});
