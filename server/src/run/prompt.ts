// What an ai.generate step sends the model (spec 8.2, 8.3), following the format's documentation where the
// runtime's indexed code differs (spec 17.1): `with.prompt` and `with.system` are resolved like the step
// input and always become text; the system prompt is `with.system` alone (the default runtime gives the
// worker no system prompt and no skills); the user message is the prompt, a blank line, `Input:`, and the
// resolved step input (a string as is, anything else as JSON indented by two spaces, as the harness does).
import type { EvalContext } from "./context";
import { evaluateTemplate, type EvalError } from "./evaluate";

export interface Prompt {
  /** The system prompt; "" when the step has none. */
  system: string;
  /** The one user message. */
  user: string;
  /** Choices the dry run made where the documentation is silent (shown in the trace). */
  notes: string[];
}

export type PromptResult = { ok: true; prompt: Prompt } | { ok: false; error: EvalError; field: "with.prompt" | "with.system" | "input" };

/** Thrown for a value nested too deeply for JSON.stringify (the engine's stack): a limit of ours, not the runtime's error. */
class TooDeep extends Error {}

function json(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (error instanceof RangeError) throw new TooDeep();
    throw error;
  }
}

/** The text of a resolved prompt or system value: strings as they are; objects and arrays compact JSON; others String(). */
function asText(value: unknown, notes: string[], field: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    notes.push(`${field} resolved to ${Array.isArray(value) ? "an array" : "an object"}, written as compact JSON (the documentation says "JSON-stringified"; its formatting is not confirmed)`);
    return json(value);
  }
  notes.push(`${field} resolved to ${value === undefined ? "undefined" : typeof value}, written as ${JSON.stringify(String(value))} (not confirmed by the documentation)`);
  return String(value);
}

/** The step input as the user message carries it. */
export function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  if (input === undefined) return "undefined";
  return json(input, 2);
}

/** Resolves `with.prompt` then `with.system` and lays out the messages. */
export function buildPrompt(withValue: Record<string, unknown>, input: unknown, context: EvalContext): PromptResult {
  let field: "with.prompt" | "with.system" | "input" = "with.prompt";
  try {
    return layout(withValue, input, context, (f) => (field = f));
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    const where = field as "with.prompt" | "with.system" | "input";
    return { ok: false, field: where, error: { message: `${where === "input" ? "The step input" : where} nests too deeply for LWIR Tools to write it as JSON.`, runtime: "", limit: true } };
  }
}

function layout(withValue: Record<string, unknown>, input: unknown, context: EvalContext, at: (field: "with.prompt" | "with.system" | "input") => void): PromptResult {
  const notes: string[] = [];
  let prompt = "";
  if (typeof withValue.prompt === "string") {
    const r = evaluateTemplate(withValue.prompt, context);
    if (!r.ok) return { ok: false, error: r.error, field: "with.prompt" };
    prompt = asText(r.value, notes, "with.prompt");
  }
  let system = "";
  at("with.system");
  if (typeof withValue.system === "string") {
    const r = evaluateTemplate(withValue.system, context);
    if (!r.ok) return { ok: false, error: r.error, field: "with.system" };
    system = asText(r.value, notes, "with.system");
  }
  at("input");
  const text = inputText(input);
  // An empty prompt counts as no prompt, as in the harness.
  const user = prompt === "" ? text : `${prompt}\n\nInput:\n${text}`;
  return { ok: true, prompt: { system, user, notes } };
}
