// `lwir eval 'TEMPLATE' [--context FILE]`: one template evaluated as the runtime evaluates it (server/src/run/).
// Exit 0 with the value as JSON, 1 with the runtime's error, 2 for usage errors and unreadable context files.
// `lwir eval --jsonl`: one result line per line of standard input, in order, for scripts.
import { readFileSync } from "node:fs";
import { parseDocument, formatOf } from "../document/document";
import { contextFromValue, withRuntimeKeyOrder, type EvalContext } from "../run/context";
import { evaluateTemplate, type EvalError, type EvalResult } from "../run/evaluate";
import { reasonOf } from "./files";

export interface EvalOptions {
  /** The template (single mode); undefined with --jsonl. */
  template?: string;
  /** --context FILE ("-": standard input). */
  context?: string;
  jsonl: boolean;
}

export interface EvalRun {
  code: number;
  stdout: string;
  stderr: string;
}

const EMPTY: EvalContext = { input: undefined, steps: Object.create(null) as EvalContext["steps"] };

/** The context a file holds (JSON, or YAML by its extension), or why it cannot be used. */
export function readContext(name: string, text: string): { context: EvalContext } | { error: string } {
  const doc = parseDocument(text, formatOf(name) ?? "json");
  const first = doc.parseErrors[0];
  if (first !== undefined || doc.tooDeep) return { error: `${name} does not parse: ${first?.message ?? "it is nested too deeply"}` };
  const r = contextFromValue(doc.value);
  return "error" in r ? { error: `${name}: ${r.error}` } : { context: withRuntimeKeyOrder(r.context) };
}

/** A value as the command prints it: JSON, or the JavaScript spelling of what JSON has no word for. */
export function printValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value, null, 2);
}

function errorLines(error: EvalError): string {
  let out = `lwir: ${error.message}\n`;
  if (error.expression !== undefined) out += `  expression: {{ ${error.expression} }}\n`;
  if (error.runtime !== "") out += `  the runtime's error: ${error.runtime}\n`;
  else out += "  (a limit of LWIR Tools: the runtime was not imitated here)\n";
  return out;
}

/** Everything but the terminal, so tests can call it; `stdin` is standard input's text when it was read. */
export function runEval(options: EvalOptions, stdin?: string | { reason: string }): EvalRun {
  if (options.jsonl) {
    if (typeof stdin !== "string") return { code: 2, stdout: "", stderr: `lwir: standard input: ${stdin?.reason ?? "nothing read"}\n` };
    return { code: 0, stdout: evalLines(stdin), stderr: "" };
  }
  let context = EMPTY;
  if (options.context !== undefined) {
    let text: string;
    if (options.context === "-") {
      if (typeof stdin !== "string") return { code: 2, stdout: "", stderr: `lwir: standard input: ${stdin?.reason ?? "nothing read"}\n` };
      text = stdin;
    } else {
      try {
        text = readFileSync(options.context, "utf8");
      } catch (error) {
        return { code: 2, stdout: "", stderr: `lwir: ${options.context}: ${reasonOf(error, options.context)}\n` };
      }
    }
    const read = readContext(options.context === "-" ? "<stdin>" : options.context, text);
    if ("error" in read) return { code: 2, stdout: "", stderr: `lwir: ${read.error}\n` };
    context = read.context;
  }
  const r = evaluateTemplate(options.template ?? "", context);
  return r.ok ? { code: 0, stdout: printValue(r.value) + "\n", stderr: "" } : { code: 1, stdout: "", stderr: errorLines(r.error) };
}

/** --jsonl: each non-empty line `{"template": "...", "context": {...}}` → one result line, in order. */
export function evalLines(text: string): string {
  let out = "";
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    out += JSON.stringify(evalLine(line)) + "\n";
  }
  return out;
}

function evalLine(line: string): Record<string, unknown> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return { error: `The line is not JSON: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, "")}.` };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { error: 'The line must be an object such as {"template": "{{ input.x }}", "context": {"input": {"x": 1}}}.' };
  }
  const { template, context, ...rest } = request as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return { error: `The line has an unknown key "${extra}"; its keys are template and context.` };
  if (typeof template !== "string") return { error: "The line needs a template: a string such as \"{{ input.x }}\"." };
  let ctx = EMPTY;
  if (context !== undefined) {
    const read = contextFromValue(context);
    if ("error" in read) return { error: read.error };
    ctx = withRuntimeKeyOrder(read.context);
  }
  return resultLine(evaluateTemplate(template, ctx));
}

function resultLine(r: EvalResult): Record<string, unknown> {
  if (r.ok) return r.value === undefined ? { undefined: true } : { value: r.value };
  const e = r.error;
  return {
    error: e.message,
    ...(e.runtime !== "" ? { runtime: e.runtime } : { limit: true }),
    ...(e.expression !== undefined ? { expression: e.expression } : {}),
  };
}
