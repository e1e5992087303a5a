// The trace of a dry run as text: what `lwir run --dry FILE` prints and the editor's "LWIR: Dry run"
// document shows (the same words in both, so the editor reads as the command line does). Pure: no Node APIs.
import type { RunError, Trace, TraceStep } from "./simulate";

/** JSON output: undefined values (an input resolving to undefined) written as {"undefined": true}, as `lwir eval --jsonl` does. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return value === undefined ? { undefined: true } : value;
}

/** Text output keeps values short; --format json has them whole. */
const MAX_VALUE_TEXT = 400;

export function short(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT)}… (${text.length} characters; --format json shows all)` : text;
}

function indented(label: string, text: string): string {
  const pad = " ".repeat(label.length);
  return text.split("\n").map((line, i) => `${i === 0 ? label : pad}│${line}`).join("\n") + "\n";
}

function stepLines(n: number, s: TraceStep): string {
  let out = `${String(n).padStart(3)}. ${s.path}  (${s.uses || "?"})`;
  if (s.sample === "generated") out += "  [generated sample]";
  if (s.sample === "given") out += "  [sample from the scenario]";
  out += "\n";
  const at = "       ";
  if (s.with) for (const [k, v] of Object.entries(s.with)) if (v !== undefined) out += `${at}with.${k}: ${short(v)}\n`;
  if (s.inputFrom && (s.input !== undefined || !s.error)) out += `${at}input (${s.inputFrom}): ${short(s.input)}\n`;
  if (s.system !== undefined) out += s.system === "" ? `${at}system: (none)\n` : indented(`${at}system `, s.system);
  if (s.user !== undefined) out += indented(`${at}user   `, s.user);
  if (s.cases) {
    for (const c of s.cases) out += `${at}case ${c.index}: ${short(c.when)} → ${short(c.value)} (${c.truthy ? "truthy" : "falsy"})\n`;
    if (s.chosen !== undefined) out += `${at}chose ${s.chosen}${s.byDefault ? " (default)" : ` (case ${s.cases.length - 1})`}\n`;
  }
  if (s.itemKeys) out += `${at}${s.itemKeys.length} branch${s.itemKeys.length === 1 ? "" : "es"}: ${s.branches!.join(", ") || "none"}\n`;
  if (s.output !== undefined && !s.error && s.uses !== "decision") out += `${at}output: ${short(s.output)}\n`;
  for (const note of s.notes ?? []) out += `${at}note: ${note}\n`;
  if (s.error) out += errorLines(s.error, at);
  return out;
}

function errorLines(e: RunError, at: string): string {
  let out = `${at}error${e.at ? ` (${e.at})` : ""}: ${e.message}${e.cause ? ` [${e.cause}]` : ""}\n`;
  if (e.expression !== undefined) out += `${at}  expression: ${e.expression}\n`;
  if (e.runtime) out += `${at}  the runtime says: ${e.runtime}\n`;
  for (const f of e.findings ?? []) out += `${at}  - ${f}\n`;
  return out;
}

export function formatTrace(title: string, input: unknown, inputFrom: string, trace: Trace): string {
  let out = `${title}\ninput (${inputFrom}): ${short(input)}\n\n`;
  trace.steps.forEach((s, i) => {
    out += stepLines(i + 1, s);
  });
  for (const note of trace.notes) out += `note: ${note}\n`;
  if (trace.status === "completed") out += `\ncompleted after ${trace.steps.length} step${trace.steps.length === 1 ? "" : "s"}; output: ${short(trace.output)}\n`;
  else {
    const e = trace.error!;
    out += `\nfailed${e.stepPath ? ` at ${e.stepPath}` : ""}: ${e.message}\n`;
    if (!trace.steps.some((s) => s.error)) out += errorLines(e, "  ").split("\n").slice(1).join("\n");
  }
  return out;
}

