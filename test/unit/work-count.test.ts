// work-count.ts, the clock-free measure of work the linearity tests use: it counts what is read and
// tells linear work from quadratic.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertLinearWork, countObjectReads, countStringWork } from "./work-count";

test("counts characters read, searched and copied", () => {
  const s = "abcdefghij".repeat(10);
  assert.equal(countStringWork(() => { for (let i = 0; i < s.length; i++) s.charCodeAt(i); }), 100);
  assert.equal(countStringWork(() => s.indexOf("j", 5)), 5);
  assert.equal(countStringWork(() => s.indexOf("z")), 100);
  assert.equal(countStringWork(() => s.slice(10, 40)), 30);
  assert.equal("x".charCodeAt(0), 120, "the methods are restored");
});

test("tells linear work from quadratic", () => {
  const linear = (n: number) => () => { const t = "{{".repeat(n); for (let i = 0; i < t.length; i++) t.charCodeAt(i); };
  assertLinearWork("a single pass", linear, 2_000, 2);
  const rescans = (n: number) => () => { const t = "{{".repeat(n); for (let i = 0; i < t.length; i += 2) t.indexOf("}}", i); };
  assert.throws(() => assertLinearWork("a search from every position", rescans, 2_000, 200), /characters read/);
  const copies = (n: number) => () => { const t = "ab".repeat(n); for (let i = 0; i < t.length; i += 50) t.slice(i); };
  assert.throws(() => assertLinearWork("a copy of every suffix", copies, 2_000, 200), /characters read/);
});

test("counts the reads of a walk over data, at every level", () => {
  const value = { a: [1, 2, { b: 3 }], c: "x" };
  assert.equal(countObjectReads(value, (v) => void v.c), 1);
  assert.equal(countObjectReads(value, (v) => void (v.a[2] as { b: number }).b), 3);
  assert.equal(countObjectReads(value, (v) => void Object.keys(v)), 2 + 2, "two keys listed, and each checked for enumerability");
  const walked = countObjectReads(value, (v) => void JSON.stringify(v));
  assert.ok(walked >= 7, String(walked));
});
