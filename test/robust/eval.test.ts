// `lwir eval` under abuse: hostile templates (nesting far past the bound, megabytes of text, tens of
// thousands of operators), hostile context files (nested past the document layer's bound, huge) and a
// large --jsonl stream of good and broken lines. Every run ends by itself with the documented exit status
// and one answer per line; nothing crashes or hangs (a run the time limit stops counts as a hang).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, mb, reportFigures, runCli } from "./support";

const dir = mkdtempSync(join(tmpdir(), "lwir-eval-abuse-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const figures = { runs: 0, slowestRunMs: 0, peakRssMB: "", crashes: 0, hangs: 0 };
let peak = 0;

function note(r: { ms: number; peakRss?: number; timedOut: boolean; signal: NodeJS.Signals | null }): void {
  figures.runs++;
  figures.slowestRunMs = Math.max(figures.slowestRunMs, r.ms);
  peak = Math.max(peak, r.peakRss ?? 0);
  if (r.timedOut) figures.hangs++;
  else if (r.signal !== null) figures.crashes++;
}

function evalJsonl(input: string) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [CLI, "eval", "--jsonl"], { input, encoding: "utf8", timeout: 120_000, maxBuffer: 512 * 1024 * 1024 });
  const run = { status: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ms: Date.now() - started, timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT" };
  note(run);
  return run;
}

describe("lwir eval under abuse", { timeout: 300_000 }, () => {
  const context = join(dir, "context.json");
  writeFileSync(context, JSON.stringify({ input: { name: "Ada", list: Array.from({ length: 100_000 }, (_, i) => ({ i, s: "x".repeat(20) })) } }));

  const hostile: Array<[string, string, number]> = [
    ["calls nested 200,000 deep", `{{ ${"len(".repeat(200_000)}input.name${")".repeat(200_000)} }}`, 1],
    ["brackets nested 200,000 deep", `{{ input${"[".repeat(200_000)}0${"]".repeat(200_000)} }}`, 1],
    ["50,000 || operands", `{{ ${Array(50_000).fill("input.zero").join(" || ")} }}`, 0],
    ["50,000 || operands, the last one missing", `{{ ${Array(50_000).fill("input.zero").join(" || ")} || input.nope }}`, 1],
    ["50,000 comparisons", `{{ ${Array(50_000).fill("1").join(" < ")} }}`, 0],
    ["a 5 MB template of 400,000 expressions", "{{ input.name }} ".repeat(400_000), 0],
    ["a 5 MB string literal", `{{ "${"x".repeat(5_000_000)}" }}`, 0],
    ["a 100,000-element array written into text", "{{ input.list }}!", 0],
    ["unbalanced braces, 1 MB", "{{ ".repeat(350_000), 1],
  ];
  for (const [name, template, code] of hostile) {
    test(name, () => {
      // through --jsonl: as one argument, megabytes would pass the operating system's limit
      const r = evalJsonl(JSON.stringify({ template, context: name.includes("array") ? { input: { list: Array.from({ length: 100_000 }, (_, i) => i) } } : { input: { name: "Ada", zero: 0 } } }));
      assert.equal(r.timedOut, false, "it ends by itself");
      assert.equal(r.signal, null, r.stderr);
      assert.equal(r.status, 0, r.stderr);
      const line = JSON.parse(r.stdout) as { value?: unknown; error?: string };
      assert.equal("error" in line ? 1 : 0, code, JSON.stringify(line).slice(0, 300));
    });
  }

  test("a context nested 100,000 levels deep is a clear exit 2, a large one is read", () => {
    const deep = join(dir, "deep.json");
    writeFileSync(deep, `{"input": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const r = runCli(["eval", "{{ input }}", "--context", deep]);
    note(r);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^lwir: .*deep\.json does not parse/);
    const big = runCli(["eval", "{{ len(input.list) }} {{ input.list[99999].i }}", "--context", context]);
    note(big);
    assert.deepEqual([big.status, big.stdout], [0, '"100000 99999"\n']);
  });

  test("20,000 --jsonl lines, a third of them broken: one answer each, in order", () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      if (i % 3 === 1) lines.push(i % 2 === 0 ? `{"template": "{{ input.v }}", "context": ` : "\u0000\u0001 not json");
      else lines.push(JSON.stringify({ template: i % 3 === 0 ? "{{ input.v }}" : "{{ steps.x.output }}", context: { input: { v: i } } }));
    }
    const r = evalJsonl(lines.join("\n"));
    assert.equal(r.status, 0, r.stderr);
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { value?: number; error?: string; runtime?: string });
    assert.equal(out.length, 20_000);
    out.forEach((o, i) => {
      if (i % 3 === 0) assert.equal(o.value, i);
      else if (i % 3 === 1) assert.match(o.error ?? "", /^The line is not JSON/);
      else assert.equal(o.runtime, "Expression references incomplete step 'x'.");
    });
  });

  test("figures", () => {
    figures.peakRssMB = mb(peak);
    reportFigures("eval-abuse", figures);
    assert.equal(figures.crashes + figures.hangs, 0);
  });
});
