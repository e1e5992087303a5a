#!/usr/bin/env node
// The cost quiet typing (client/src/quietTyping.ts) adds to each diagnostics pull in VS Code, on a
// generated 1,000-step document with injected errors, JSON and YAML. Not part of `npm test`.
//
//   node bench/quiet-typing.mjs [--steps 1000] [--errors 200] [--rounds 2000]
//
// Four cases per format: no recent edit (the common case: an early return, no text read), typing in an
// expression near the end of the document, typing a step id near the end, and the same with a finding on
// `steps` naming that id (terminal.ambiguous does): the walk up through every line above the cursor. Prints the median and 95th percentile per call in microseconds.
import { build } from "esbuild";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate, render } from "./generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const steps = option("steps", 1000);
const errors = option("errors", 200);
const rounds = option("rounds", 2000);

const outfile = join(mkdtempSync(join(tmpdir(), "lwir-quiet-bench-")), "entry.cjs");
await build({
  stdin: {
    contents: `export { quietDiagnostics } from "./client/src/quietTyping";
      export { analyzeText } from "./server/src/service/analysis";
      export { toDiagnostics } from "./server/src/service/diagnostics";`,
    resolveDir: root, loader: "ts",
  },
  bundle: true, platform: "node", format: "cjs", target: "node20", outfile, logLevel: "warning", mainFields: ["module", "main"],
});
const { quietDiagnostics, analyzeText, toDiagnostics } = createRequire(import.meta.url)(outfile);

function time(fn) {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)] };
}

console.log(`quietDiagnostics per call, ${steps} steps, ${errors} injected errors, ${rounds} rounds (µs)`);
for (const format of ["json", "yaml"]) {
  const { doc } = generate({ steps, seed: "quiet", errors });
  let text = render(doc, format, "quiet typing bench");
  // something being typed near the end: an open `{{ steps.` in the last prompt-like string value
  const marker = format === "json" ? '"prompt": "' : "prompt: ";
  const at = text.lastIndexOf(marker);
  if (at < 0) throw new Error("no prompt in the generated document");
  const insertAt = text.indexOf("\n", at) - (format === "json" ? 2 : 0);
  const typedText = text.slice(0, insertAt) + " {{ steps." + text.slice(insertAt);
  const diagnostics = toDiagnostics(analyzeText(typedText, format));
  const exprCursor = insertAt + " {{ steps.".length;
  const idAt = typedText.lastIndexOf(format === "json" ? '"id": "' : "- id: ");
  const idCursor = typedText.indexOf("\n", idAt) - (format === "json" ? 2 : 0);
  const now = 1_000_000;
  // the cursor's line as VS Code passes it (its document knows its lines)
  const lineOf = (offset) => typedText.slice(0, offset).split("\n").length - 1;
  const lines = new Map([[exprCursor, lineOf(exprCursor)], [idCursor, lineOf(idCursor)]]);
  // and the start of each line, as VS Code's document has them
  const lineStarts = [0];
  for (let i = typedText.indexOf("\n"); i >= 0; i = typedText.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const input = (cursor, lastEdit) => ({ text: typedText, cursor, cursorLine: lines.get(cursor), lineOffset: (l) => lineStarts[l], lastEdit, now, pauseMs: 1500, diagnostics });
  const idle = time(() => quietDiagnostics(input(exprCursor, { at: now - 60_000, offsets: [exprCursor] })));
  const expr = time(() => quietDiagnostics(input(exprCursor, { at: now - 100, offsets: [exprCursor] })));
  const id = time(() => quietDiagnostics(input(idCursor, { at: now - 100, offsets: [idCursor] })));
  // the worst case: a finding on `steps` (the document's top) naming the id being typed, as
  // terminal.ambiguous names a new step: the walk up to it passes every line above the cursor
  const stepsLine = typedText.slice(0, typedText.indexOf(format === "json" ? '"steps"' : "\nsteps:") + 1).split("\n").length - 1;
  const typedId = /"id": "([^"]*)"|- id: (\S*)/.exec(typedText.slice(idAt))?.slice(1).find((x) => x !== undefined) ?? "";
  const naming = [...diagnostics, { range: { start: { line: stepsLine, character: 2 }, end: { line: stepsLine, character: 7 } }, message: `final steps: "${typedId}"`, code: "terminal.ambiguous" }];
  const named = time(() => quietDiagnostics({ ...input(idCursor, { at: now - 100, offsets: [idCursor] }), diagnostics: naming }));
  if (quietDiagnostics({ ...input(idCursor, { at: now - 100, offsets: [idCursor] }), diagnostics: naming }).held < 1) throw new Error("the finding naming the id is not held");
  const held = quietDiagnostics(input(exprCursor, { at: now - 100, offsets: [exprCursor] })).held;
  console.log(`${format}: ${typedText.length} chars, ${diagnostics.length} diagnostics (${held} held while typing the expression)`);
  for (const [name, r] of [["no recent edit", idle], ["typing an expression", expr], ["typing a step id", id], ["an id named on steps", named]]) {
    console.log(`  ${name.padEnd(22)} median ${r.median.toFixed(1)}  p95 ${r.p95.toFixed(1)}`);
  }
  text = undefined;
}
