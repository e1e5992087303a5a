import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { encodeUtf8, sha256Hex, sha256HexOfBytes, useHostSha256 } from "../../server/src/lwir/sha256";
import { useNodeSha256 } from "../../server/src/nodeSha256";
import { readFileSync } from "node:fs";

const nodeHex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

test("FIPS 180-4 / NIST example vectors", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
  );
  assert.equal(sha256Hex("a".repeat(1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
});

test("every length around the block and padding boundaries matches node:crypto", () => {
  for (let n = 0; n <= 260; n++) {
    const bytes = new Uint8Array(n).map((_, i) => (i * 31 + n) & 255);
    assert.equal(sha256HexOfBytes(bytes), nodeHex(bytes), `length ${n}`);
  }
});

test("random byte arrays match node:crypto", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
      assert.equal(sha256HexOfBytes(bytes), nodeHex(bytes));
    }),
    { numRuns: 300 },
  );
});

test("strings hash as UTF-8, lone surrogates as U+FFFD (like TextEncoder)", () => {
  assert.equal(sha256Hex("é€😀"), nodeHex(Buffer.from("é€😀", "utf8")));
  assert.equal(sha256Hex("\ud800"), sha256Hex("\ufffd"));
  assert.equal(sha256Hex("a\udc00b\ud83d"), sha256Hex("a\ufffdb\ufffd"));
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
      assert.equal(sha256Hex(s), nodeHex(utf8(s)));
    }),
    { numRuns: 500 },
  );
  // Arbitrary UTF-16 code units, lone surrogates included.
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 }), (units) => {
      const s = String.fromCharCode(...units);
      assert.equal(sha256Hex(s), nodeHex(utf8(s)));
    }),
    { numRuns: 500 },
  );
});

test("surrogate pairs that straddle the internal encoding slices stay pairs", () => {
  for (const at of [32767, 32768, 65535, 65536]) {
    for (const tail of ["😀", "\ud83d", "\ude00", "😀😀"]) {
      const s = "x".repeat(at - 1) + tail + "y".repeat(10);
      assert.equal(sha256Hex(s), nodeHex(utf8(s)), `pair at ${at}: ${JSON.stringify(tail)}`);
    }
  }
  const big = ("ab😀\u0800\u07ff" + "\ud800").repeat(50_000);
  assert.equal(sha256Hex(big), nodeHex(utf8(big)));
});

test("the fallback UTF-8 encoder agrees with TextEncoder", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 100 }), fc.string({ unit: "grapheme", maxLength: 50 }), (units, g) => {
      const s = String.fromCharCode(...units) + g;
      const out = new Uint8Array(s.length * 3);
      const n = encodeUtf8(s, 0, s.length, out);
      assert.deepEqual(out.subarray(0, n), utf8(s));
    }),
    { numRuns: 500 },
  );
});

test("speed: 5 MB of text, compared with node:crypto", () => {
  const text = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ id: `step-${i}`, prompt: "Summarise {{ input.topic }} — é😀", n: i / 7 })));
  const mb = utf8(text).length / 1e6;
  const median = (f: () => void): number => {
    const xs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t = performance.now();
      f();
      xs.push(performance.now() - t);
    }
    return xs.sort((a, b) => a - b)[3];
  };
  let ours = "";
  let theirs = "";
  const tOurs = median(() => (ours = sha256Hex(text)));
  const tNode = median(() => (theirs = createHash("sha256").update(text, "utf8").digest("hex")));
  assert.equal(ours, theirs);
  const perMb = tOurs / mb;
  console.log(
    `sha256Hex: ${mb.toFixed(2)} MB in ${tOurs.toFixed(1)} ms (${(mb / (tOurs / 1000)).toFixed(0)} MB/s, ${perMb.toFixed(1)} ms/MB); ` +
      `node:crypto ${tNode.toFixed(1)} ms (${(mb / (tNode / 1000)).toFixed(0)} MB/s); ratio ${(tOurs / tNode).toFixed(1)}x`,
  );
});

test("the Node bundles' node:crypto SHA-256 (nodeSha256.ts) gives our digests, lone surrogates included; the CLI uses it", () => {
  const samples = ["", "abc", "a".repeat(70_000), "é😀\u0000", "a\ud800b", "\udc00", "x\ud83d", "{\"a\":\"\\ud800\"}"];
  const ours = samples.map((s) => sha256Hex(s));
  useNodeSha256();
  try {
    assert.deepEqual(samples.map((s) => sha256Hex(s)), ours);
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
      const host = sha256Hex(s);
      useHostSha256(undefined);
      const pure = sha256Hex(s);
      useNodeSha256();
      return host === pure;
    }), { numRuns: 300 });
  } finally {
    useHostSha256(undefined);
  }
  // the CLI and the Node server set it before they start (the browser server does not)
  for (const entry of ["server/src/cli.ts", "server/src/node.ts"]) assert.match(readFileSync(entry, "utf8"), /^useNodeSha256\(\);$/m, entry);
  assert.doesNotMatch(readFileSync("server/src/browser.ts", "utf8"), /useNodeSha256/);
});
