// Snippets as small value trees, rendered to LSP snippet text in JSON or YAML syntax at a given
// indentation. Placeholders are named; the renderer numbers them in order of first appearance and
// mirrors repeated names. Every literal is escaped twice: first for the host syntax (JSON string,
// YAML scalar), then for the snippet grammar (`$`, `}`, `\`).
//
// Also the LWIR shapes completion offers: a new step of each type, and the value that goes with each
// key of a step, of its `with`, `output`, `fanIn`, … (catalog section 4), all valid as expanded.
import { API_VERSION, KIND, OUTPUT_MODES, FAILURE_MODES, FAN_IN_ORDERS, STEP_TYPES, END } from "../lwir/validate";
import { sha256Hex } from "../lwir/sha256";
import { doubleQuotedInner, isPlainSafe, yamlScalar } from "../document/yamlQuote";

export type SnipPart = string | { ph: string; def?: string; choices?: readonly string[] };

/** A member's key: literal text, or a placeholder the user names (a property of a schema skeleton). */
export type SnipKey = string | { ph: string; def: string };

export type Snip =
  /** `inner`: what goes between the braces of an empty object (a tab stop, so the cursor lands inside). */
  | { k: "obj"; entries: Array<[SnipKey, Snip]>; inline?: boolean; inner?: SnipPart }
  | { k: "arr"; items: Snip[]; inline?: boolean }
  /** A string value: literal text and placeholders. */
  | { k: "str"; parts: SnipPart[] }
  /** A number, boolean or null written as is (possibly a placeholder around it). */
  | { k: "raw"; parts: SnipPart[] };

export const obj = (entries: Array<[SnipKey, Snip]>, inline?: boolean): Snip => ({ k: "obj", entries, inline });
/** The key as written when its placeholder keeps its default. */
export const keyText = (key: SnipKey): string => (typeof key === "string" ? key : key.def);
export const arr = (items: Snip[], inline?: boolean): Snip => ({ k: "arr", items, inline });
export const str = (...parts: SnipPart[]): Snip => ({ k: "str", parts });
export const raw = (...parts: SnipPart[]): Snip => ({ k: "raw", parts });
export const ph = (name: string, def?: string): SnipPart => ({ ph: name, def });
/** The placeholder name of the final tab stop (`$0`): where the cursor is left after the last tab. */
export const FINAL = "$0";
/** The final tab stop: the renderer writes `$0` (no number of its own). */
export const finalStop = (def?: string): SnipPart => ({ ph: FINAL, def });
/** An empty object with the cursor (a tab stop) between its braces. */
export const emptyObj = (stop: SnipPart = finalStop()): Snip => ({ k: "obj", entries: [], inline: true, inner: stop });
/** An empty array with the cursor (a tab stop) between its brackets. */
export const emptyArr = (stop: SnipPart = finalStop()): Snip => arr([raw(stop)], true);
export const choice = (name: string, choices: readonly string[]): SnipPart =>
  choices.length === 0 ? { ph: name } : choices.length === 1 ? { ph: name, def: choices[0] } : { ph: name, choices };

export interface RenderStyle {
  format: "json" | "yaml";
  /** YAML inside a flow collection: write JSON-like flow syntax. */
  flow?: boolean;
  /** Column of the line the rendered text starts on (continuation lines are indented from it). */
  indent: number;
  /** Indentation unit. */
  unit: number;
}

// ---------------------------------------------------------------------------------------------
// Escaping

/** Escapes snippet syntax in literal text. */
export function escapeSnippet(s: string): string {
  return s.replace(/[\\$}]/g, (c) => "\\" + c);
}
function escapeChoice(s: string): string {
  return s.replace(/[\\$}|,]/g, (c) => "\\" + c);
}
// ---------------------------------------------------------------------------------------------
// Rendering

class Renderer {
  private readonly numbers = new Map<string, number>();
  constructor(private readonly style: RenderStyle) {}

  private num(name: string): { n: number; first: boolean } {
    const known = this.numbers.get(name);
    if (known !== undefined) return { n: known, first: false };
    const n = this.numbers.size + 1;
    this.numbers.set(name, n);
    return { n, first: true };
  }

  /** Parts of a scalar, each literal escaped by `host` first. */
  private parts(parts: SnipPart[], host: (s: string) => string): string {
    let out = "";
    for (const p of parts) {
      if (typeof p === "string") { out += escapeSnippet(host(p)); continue; }
      if (p.ph === FINAL) { out += p.def ? `\${0:${escapeSnippet(host(p.def))}}` : "$0"; continue; }
      const { n, first } = this.num(p.ph);
      if (!first) out += `\${${n}}`;
      else if (p.choices && p.choices.length > 1) out += `\${${n}|${p.choices.map((c) => escapeChoice(host(c))).join(",")}|}`;
      else if (p.def !== undefined && p.def !== "") out += `\${${n}:${escapeSnippet(host(p.def))}}`;
      else out += `\${${n}}`;
    }
    return out;
  }

  private scalar(node: Extract<Snip, { k: "str" | "raw" }>): string {
    if (node.k === "raw") return this.parts(node.parts, (s) => s);
    if (this.style.format === "json") return `"${this.parts(node.parts, doubleQuotedInner)}"`;
    // YAML: plain when every expansion the placeholders offer is plain-safe, else double-quoted.
    const variants = expansions(node.parts);
    if (variants.every(isPlainSafe)) return this.parts(node.parts, (s) => s);
    return `"${this.parts(node.parts, doubleQuotedInner)}"`;
  }

  /** A value written where the cursor is (first line) with continuation lines indented from `indent`. */
  value(node: Snip, indent: number, flow = this.style.format === "json" || this.style.flow === true): string {
    if (node.k === "str" || node.k === "raw") return this.scalar(node);
    const unit = this.style.unit;
    const pad = (n: number) => " ".repeat(n);
    const json = this.style.format === "json" || flow;
    if (node.k === "obj") {
      if (node.entries.length === 0) return node.inner ? `{${this.parts([node.inner], (x) => x)}}` : "{}";
      const inline = node.inline ?? node.entries.every(([, v]) => v.k === "str" || v.k === "raw");
      if (json) {
        if (inline || flow && this.style.format === "yaml") {
          return `{${node.entries.map(([k, v]) => `${this.key(k)}: ${this.value(v, indent, true)}`).join(", ")}}`;
        }
        const inner = node.entries.map(([k, v]) => `${pad(indent + unit)}${this.key(k)}: ${this.value(v, indent + unit, true)}`);
        return `{\n${inner.join(",\n")}\n${pad(indent)}}`;
      }
      if (inline) return `{${node.entries.map(([k, v]) => `${this.key(k, "yaml")}: ${this.value(v, indent, true)}`).join(", ")}}`;
      // block mapping: starts on the next line
      return node.entries.map(([k, v]) => `\n${pad(indent + unit)}${this.member(k, v, indent + unit)}`).join("");
    }
    if (node.items.length === 0) return "[]";
    const inline = node.inline ?? node.items.every((v) => v.k === "str" || v.k === "raw");
    if (json) {
      if (inline || flow && this.style.format === "yaml") return `[${node.items.map((v) => this.value(v, indent, true)).join(", ")}]`;
      const inner = node.items.map((v) => `${pad(indent + unit)}${this.value(v, indent + unit, true)}`);
      return `[\n${inner.join(",\n")}\n${pad(indent)}]`;
    }
    if (inline) return `[${node.items.map((v) => this.value(v, indent, true)).join(", ")}]`;
    return node.items.map((v) => `\n${pad(indent + unit)}- ${this.item(v, indent + unit + 2)}`).join("");
  }

  /** A key as snippet text: a JSON string or a YAML scalar; a placeholder key is a tab stop inside it. */
  private key(key: SnipKey, format = this.style.format): string {
    if (typeof key === "string") return escapeSnippet(format === "json" ? JSON.stringify(key) : yamlScalar(key));
    if (format === "json") return `"${this.parts([key], doubleQuotedInner)}"`;
    return isPlainSafe(key.def) ? this.parts([key], (s) => s) : `"${this.parts([key], doubleQuotedInner)}"`;
  }

  /** `key: value` (YAML block) or `"key": value` (JSON/flow), the key at column `indent`. */
  member(key: SnipKey, value: Snip, indent: number): string {
    const json = this.style.format === "json" || this.style.flow === true;
    const k = this.key(key); // first: its tab stop comes before the value's
    if (json) return `${k}: ${this.value(value, indent, true)}`;
    const v = this.value(value, indent, false);
    return `${k}:${v.startsWith("\n") ? "" : " "}${v}`;
  }

  /** The content of a YAML block sequence item whose content starts at column `indent`. */
  item(value: Snip, indent: number): string {
    if (value.k === "obj" && !(value.inline ?? false) && value.entries.length > 0) {
      return value.entries.map(([k, v], i) => `${i === 0 ? "" : `\n${" ".repeat(indent)}`}${this.member(k, v, indent)}`).join("");
    }
    return this.value(value, indent - this.style.unit, false).replace(/^\n\s*/, "");
  }
}

/** Every plain text a scalar can expand to (each choice; the default of other placeholders). */
function expansions(parts: SnipPart[]): string[] {
  let out = [""];
  for (const p of parts) {
    if (typeof p === "string") out = out.map((o) => o + p);
    else if (p.choices && p.choices.length > 1) out = out.flatMap((o) => p.choices!.map((c) => o + c));
    else out = out.map((o) => o + (p.def ?? ""));
  }
  return out;
}

/** `"key": value` / `key: value` as snippet text. */
export function renderMember(key: string, value: Snip, style: RenderStyle): string {
  return withFinalStop(new Renderer(style).member(key, value, style.indent), braces(style));
}

/** A value as snippet text; a YAML block mapping/sequence starts with a line break. */
export function renderValue(value: Snip, style: RenderStyle): string {
  return withFinalStop(new Renderer(style).value(value, style.indent), braces(style));
}

/** A YAML block sequence item's content (after `- `), whose content column is `style.indent`. */
export function renderItem(value: Snip, style: RenderStyle): string {
  return withFinalStop(new Renderer(style).item(value, style.indent), braces(style));
}

/** A whole document: a YAML block mapping from column 0, or a JSON value, followed by a line break. */
export function renderDocument(value: Snip, style: RenderStyle): string {
  const r = new Renderer({ ...style, indent: 0 });
  return withFinalStop(style.format === "yaml" ? r.item(value, 0) : r.value(value, 0), braces(style)) + "\n";
}

/**
 * Where the cursor is left: without a final tab stop an editor leaves it at the end of the snippet,
 * which for a closing `}`/`]` is after the structure, so the next thing typed lands outside it. Then
 * `$0` goes inside: before the last line break of a multi-line object/array (after its last member),
 * or before the closing bracket of a one-line one. A YAML block snippet ends inside its last member
 * (`braces` false): there only an empty `[]`/`{}` at the end gets the cursor between its brackets.
 */
export function withFinalStop(snippet: string, braces = true): string {
  const end = scanEnd(snippet);
  if (end.hasFinal || end.placeholder || end.escaped) return snippet;
  const last = snippet[snippet.length - 1];
  if (last !== "}" && last !== "]") return snippet;
  if (!braces) return /(\[\]|\{\})$/.test(snippet) ? snippet.slice(0, -1) + "$0" + last : snippet;
  const lineBreak = snippet.lastIndexOf("\n");
  if (lineBreak >= 0 && /^\s*[}\]]$/.test(snippet.slice(lineBreak + 1))) return snippet.slice(0, lineBreak) + "$0" + snippet.slice(lineBreak);
  return snippet.slice(0, -1) + "$0" + last;
}

/** JSON, or YAML written in flow style: the whole snippet is brackets and braces. */
function braces(style: RenderStyle): boolean {
  return style.format === "json" || style.flow === true;
}

/**
 * Whether snippet text has a final tab stop, and whether it ends by closing a placeholder or with an
 * escaped character. Literal
 * `}` are escaped in snippet text, so an unescaped `}` closes a placeholder while one is open and is
 * a JSON/flow brace otherwise.
 */
function scanEnd(s: string): { hasFinal: boolean; placeholder: boolean; escaped: boolean } {
  let depth = 0;
  let hasFinal = false;
  let placeholder = false;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\") { i++; escaped = i === s.length - 1; continue; }
    if (c === "$" && (s[i + 1] === "0" || (s[i + 1] === "{" && s[i + 2] === "0" && !/\d/.test(s[i + 3] ?? "")))) hasFinal = true;
    if (c === "$" && s[i + 1] === "{") { depth++; i++; continue; }
    if (c === "}" && depth > 0) { depth--; placeholder = i === s.length - 1; }
  }
  return { hasFinal, placeholder, escaped };
}

/**
 * Expands snippet text as an editor does when the user accepts every default: placeholders become
 * their default (or first choice), tab stops and mirrors become their placeholder's text. For tests.
 */
export function expandSnippet(snippet: string): string {
  const defaults = new Map<string, string>();
  // First pass to learn defaults (placeholders may be mirrored before or after their definition).
  const parse = (s: string, learn: boolean): string => {
    let out = "";
    let i = 0;
    while (i < s.length) {
      const c = s[i];
      if (c === "\\" && i + 1 < s.length && "\\$}".includes(s[i + 1])) { out += s[i + 1]; i += 2; continue; }
      if (c === "$") {
        const simple = /^\$(\d+)/.exec(s.slice(i));
        if (simple) { out += learn ? "" : defaults.get(simple[1]) ?? ""; i += simple[0].length; continue; }
        const open = /^\$\{(\d+)([:|}])/.exec(s.slice(i));
        if (open) {
          const n = open[1];
          i += open[0].length;
          if (open[2] === "}") { out += learn ? "" : defaults.get(n) ?? ""; continue; }
          // find the matching close, honouring escapes and nesting
          let depth = 1;
          let j = i;
          while (j < s.length && depth > 0) {
            if (s[j] === "\\") { j += 2; continue; }
            if (s[j] === "$" && s[j + 1] === "{") { depth++; j += 2; continue; }
            if (s[j] === "}") { depth--; if (depth === 0) break; }
            j++;
          }
          const body = s.slice(i, j);
          i = j + 1;
          let text: string;
          if (open[2] === "|") {
            const inner = body.endsWith("|") ? body.slice(0, -1) : body;
            const first = /^(?:\\.|[^,\\])*/.exec(inner)![0];
            text = first.replace(/\\(.)/g, "$1");
          } else text = parse(body, learn);
          if (!defaults.has(n)) defaults.set(n, text);
          out += text;
          continue;
        }
      }
      out += c;
      i++;
    }
    return out;
  };
  parse(snippet, true);
  return parse(snippet, false);
}

// ---------------------------------------------------------------------------------------------
// LWIR shapes

export const STEP_TYPE_DOCS: Record<(typeof STEP_TYPES)[number], string> = {
  "ai.generate": "One model call on a model slot listed in `permissions.models`; the reply is validated against the step's output contract.",
  "tool.call": "Calls a tool listed in `permissions.tools` with `with.args`.",
  "code.run": "Runs pinned TypeScript files (`with.files`, each with its sha256) from `with.entrypoint`, in a sandbox that denies network access.",
  parallel: "Runs its body `steps` once per element of `with.items` (bounded by `maxBranches`/`maxConcurrency`) and fans the results in as an array.",
  decision: "Routes to the first case whose `when` holds, else to `default`; a target is a step of the same list or `end`. No output.",
};

export const OUTPUT_MODE_DOCS: Record<(typeof OUTPUT_MODES)[number], string> = {
  text: "Plain text.",
  object: "A JSON object; `schema` is required.",
  array: "A JSON array; `schema` is required (a parallel step's output is always an array of fan-in envelopes).",
  choice: "One of the strings in `values`.",
  json: "Any JSON value; `schema` is optional unless another step reads this output.",
};

export const FAILURE_MODE_DOCS: Record<(typeof FAILURE_MODES)[number], string> = {
  fail_fast: "The first failing branch fails the parallel step.",
  all_settled: "Every branch runs to the end; failures are reported per branch in the fan-in.",
};

export const FAN_IN_ORDER_DOCS: Record<(typeof FAN_IN_ORDERS)[number], string> = {
  input: "Fan-in results in the order of `items`.",
  itemKey: "Fan-in results ordered by `itemKey`.",
};

/** What a snippet needs to know about the document. */
export interface ShapeEnv {
  models: string[];
  tools: string[];
  /** Step ids already used in the list the new step goes to (placeholders default to a fresh id). */
  takenIds: ReadonlySet<string>;
  /** Other steps of the same list (for needs and decision targets). */
  listIds: string[];
  /** Body steps of this parallel step (for fanIn.outputStep). */
  bodyOutputSteps?: string[];
}

export function freshId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const CODE_CONTENT = "export async function run({ input }) {\n  return input;\n}";

/** The parallel step's fan-in envelope output (catalog 4, parallel). */
export function envelopeOutput(): Snip {
  return obj([
    ["mode", str("array")],
    ["schema", obj([
      ["type", str("array")],
      ["items", obj([
        ["type", str("object")],
        ["required", arr([str("itemKey"), str("status"), str("artifacts")])],
        ["properties", obj([
          ["itemKey", obj([["type", str("string")]], true)],
          ["status", obj([["type", str("string")]], true)],
          ["output", raw("true")],
          ["artifacts", obj([["type", str("array")], ["items", obj([["type", str("string")]], true)]], true)],
        ], false)],
      ], false)],
    ], false)],
  ], false);
}

/** The `with` object of a step type, as a snippet. */
export function withFor(uses: string, env: ShapeEnv, p = "w"): Snip {
  switch (uses) {
    case "ai.generate":
      return obj([["model", str(choice(`${p}model`, env.models.length ? env.models : ["model"]))], ["prompt", str(ph(`${p}prompt`, "Write the prompt"))]], false);
    case "tool.call":
      return obj([["tool", str(choice(`${p}tool`, env.tools.length ? env.tools : ["tool"]))], ["args", emptyObj(ph(`${p}args`))]], false);
    case "code.run":
      return obj([
        ["entrypoint", str("main.ts")],
        ["files", obj([["main.ts", obj([["content", str(CODE_CONTENT)], ["sha256", str(`sha256:${sha256Hex(CODE_CONTENT)}`)]], false)]], false)],
        ["sandbox", obj([["network", str("deny")], ["env", str("deny")], ["fs", str("deny")]], true)],
      ], false);
    case "decision":
      return obj([
        ["cases", arr([obj([["when", str("{{ ", ph(`${p}when`, "input.flag"), " }}")], ["to", str(choice(`${p}to`, [END, ...env.listIds]))]], true)], false)],
        ["default", str(choice(`${p}default`, [END, ...env.listIds]))],
      ], false);
    case "parallel":
      return obj([
        ["items", str("{{ ", ph(`${p}items`, "input.items"), " }}")],
        ["itemKey", str("{{ item", ph(`${p}key`, ".id"), " }}")],
        ["cardinality", obj([["kind", str("matches_items")]], true)],
        ["maxBranches", raw(ph(`${p}branches`, "10"))],
        ["maxConcurrency", raw(ph(`${p}concurrency`, "2"))],
        ["failureMode", str(choice(`${p}failure`, FAILURE_MODES))],
        ["fanIn", obj([["order", str(choice(`${p}order`, FAN_IN_ORDERS))], ["output", str("array")]], true)],
      ], false);
    default:
      return obj([], true);
  }
}

/** A new step of type `uses` (body: for a parallel body, where parallel is not offered). */
export function stepSnippet(uses: string, env: ShapeEnv): Snip {
  const base: Record<string, string> = { "ai.generate": "generate", "tool.call": "call", "code.run": "compute", parallel: "fan-out", decision: "route" };
  const id = freshId(base[uses] ?? "step", env.takenIds);
  const entries: Array<[string, Snip]> = [["id", str(ph("id", id))], ["uses", str(uses)]];
  entries.push(["with", withFor(uses, env)]);
  if (uses === "parallel") {
    const bodyEnv: ShapeEnv = { ...env, takenIds: new Set([id]), listIds: [] };
    const body = stepSnippet("ai.generate", bodyEnv);
    if (body.k === "obj") body.entries[0] = ["id", str(ph("bodyid", freshId("branch", new Set([id]))))];
    entries.push(["steps", arr([body], false)]);
    entries.push(["output", envelopeOutput()]);
  } else if (uses !== "decision") {
    // the mode is a choice (a tab stop like every other placeholder); the first is valid without a schema
    entries.push(["output", obj([["mode", str(choice("mode", uses === "code.run" || uses === "tool.call" ? ["json", "text"] : ["text", "json"]))]], true)]);
  }
  return obj(entries, false);
}

/** The value a key of a step gets when completed (undefined: the key is not offered for this type). */
export function stepKeyValue(key: string, uses: unknown, env: ShapeEnv, selfId: string | undefined): Snip | undefined {
  const others = env.listIds.filter((id) => id !== selfId);
  switch (key) {
    case "id": return str(ph("id", freshId("step", env.takenIds)));
    case "uses": return str(choice("uses", STEP_TYPES));
    case "needs": return arr(others.length ? [str(choice("needs", others))] : [], true);
    case "with": return typeof uses === "string" && (STEP_TYPES as readonly string[]).includes(uses) ? withFor(uses, env) : obj([], true);
    case "input": return obj([[ "value", str("{{ ", ph("input", "input"), " }}")]], true);
    case "output":
      if (uses === "decision") return undefined;
      if (uses === "parallel") return envelopeOutput();
      return obj([["mode", str(choice("mode", uses === "tool.call" || uses === "code.run" ? ["json", "text"] : ["text", "json"]))]], true);
    case "maxVisits": return raw(ph("maxVisits", "2"));
    case "sensitive": return raw(choice("sensitive", ["true", "false"]));
    case "onFailure":
      if (uses === "ai.generate") return obj([["repair", obj([["mode", str("self")], ["maxAttempts", raw(ph("attempts", "3"))]], true)]], false);
      if (uses === "code.run") return obj([["fixer", fixerSnippet(env)]], false);
      return undefined;
    case "steps": {
      if (uses !== "parallel") return undefined;
      const body = stepSnippet("ai.generate", { ...env, takenIds: new Set(), listIds: [] });
      if (body.k === "obj") body.entries[0] = ["id", str(ph("bodyid", "branch"))];
      return arr([body], false);
    }
    default: return undefined;
  }
}

function fixerSnippet(env: ShapeEnv): Snip {
  return obj([
    ["model", str(choice("fixmodel", env.models.length ? env.models : ["model"]))],
    ["maxAttempts", raw(ph("fixattempts", "3"))],
    ["system", str(ph("fixsystem", "Fix the code so it returns output matching the schema."))],
  ], false);
}

/** Keys a step accepts, in the order they are offered, with a line of documentation each. */
export const STEP_KEYS: ReadonlyArray<{ key: string; doc: string }> = [
  { key: "id", doc: "The step id: unique in its list; no `.`, `[`, `]` or `@attempt_`." },
  { key: "uses", doc: "The step type: ai.generate, tool.call, code.run, parallel or decision." },
  { key: "needs", doc: "Steps of the same list (or, in a parallel body, steps the parallel step needs) that must finish first. Every step read with `{{ steps.X }}` must be listed." },
  { key: "with", doc: "The settings of the step's type: `model` and `prompt` (ai.generate), `tool` and `args` (tool.call), `entrypoint`, `files` and `sandbox` (code.run), `items`, `itemKey`, `cardinality`, … (parallel), `cases` and `default` (decision)." },
  { key: "input", doc: "The step input; its strings may hold `{{ }}` expressions." },
  { key: "output", doc: "The output contract: a mode and, for object/array, a schema. Not allowed on a decision step." },
  { key: "maxVisits", doc: "How often the step may run in one run (1–100, default 1). Every step on a loop needs at least 2." },
  { key: "sensitive", doc: "Reserved: `true` will suppress inline output in the event log." },
  { key: "onFailure", doc: "Recovery: `repair` for ai.generate, `fixer` for code.run." },
  { key: "steps", doc: "The body of a parallel step: run once per item." },
];

/** Keys of `with` per step type, with their documentation and value. */
export function withKeys(uses: unknown, env: ShapeEnv): Array<{ key: string; doc: string; value: Snip }> {
  const models = env.models.length ? env.models : ["model"];
  const tools = env.tools.length ? env.tools : ["tool"];
  switch (uses) {
    case "ai.generate":
      return [
        { key: "model", doc: "The model slot: one of `permissions.models`.", value: str(choice("model", models)) },
        { key: "prompt", doc: "The user message; may hold `{{ }}` expressions.", value: str(ph("prompt", "")) },
        { key: "system", doc: "The system prompt; may hold `{{ }}` expressions.", value: str(ph("system", "")) },
        { key: "args", doc: "Free-form arguments (template checked).", value: emptyObj() },
      ];
    case "tool.call":
      return [
        { key: "tool", doc: "The tool: one of `permissions.tools`.", value: str(choice("tool", tools)) },
        { key: "args", doc: "The tool's arguments; strings may hold `{{ }}` expressions.", value: emptyObj() },
      ];
    case "code.run": {
      const w = withFor("code.run", env);
      const get = (k: string) => (w.k === "obj" ? w.entries.find(([n]) => n === k)![1] : obj([]));
      return [
        { key: "entrypoint", doc: "The file to run: a safe relative path ending in `.ts`, one of `files`.", value: str(ph("entrypoint", "main.ts")) },
        { key: "files", doc: "The pinned source files: name → `{content, sha256}` (sha256 of the UTF-8 content).", value: get("files") },
        { key: "sandbox", doc: "Sandbox policy: `network` must be `\"deny\"` (or false); `env` and `fs` likewise when given.", value: get("sandbox") },
      ];
    }
    case "decision":
      return [
        { key: "cases", doc: "Ordered cases: the first whose `when` (a whole-string `{{ }}` template) holds routes to its `to`.", value: arr([obj([["when", str("{{ ", ph("when", "input.flag"), " }}")], ["to", str(choice("to", [END, ...env.listIds]))]], true)], false) },
        { key: "default", doc: "Where to go when no case holds: a step of the same list or `end`.", value: str(choice("default", [END, ...env.listIds])) },
      ];
    case "parallel": {
      const w = withFor("parallel", env, "");
      const docs: Record<string, string> = {
        items: "The array to fan out over: a whole-string `{{ }}` template.",
        itemKey: "A unique, deterministic key per item: a whole-string template using `item`.",
        cardinality: "Must be `{kind: matches_items}`.",
        maxBranches: "At most this many items (1–100).",
        maxConcurrency: "Branches running at once (1–maxBranches).",
        failureMode: "`fail_fast` or `all_settled`.",
        fanIn: "How results are gathered: `order` (`input` or `itemKey`), `output: array`, optional `outputStep`.",
      };
      return w.k === "obj" ? w.entries.map(([key, value]) => ({ key: keyText(key), doc: docs[keyText(key)] ?? "", value })) : [];
    }
    default:
      return [];
  }
}

export { CODE_CONTENT };

// ---------------------------------------------------------------------------------------------
// The top level of a workflow

/** Names the document already uses where a permission list is checked (model and tool names), with the steps that use them. */
export interface UsedNames {
  models: string[];
  tools: string[];
}

const MODEL_DEFAULT = "model";

/** `metadata`: name, version and description, each a tab stop. */
export function metadataSnippet(): Snip {
  return obj([
    ["name", str(ph("name", "workflow"))],
    ["version", str(ph("version", "0.1.0"))],
    ["description", str(ph("description", "What this workflow does"))],
  ], false);
}

/** The types a skeleton's first property offers (string first). */
export const PROPERTY_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;

/**
 * An object schema naming one property (its name and type are tab stops). Never `properties: {}`: a
 * schema that lists no property is a free-form object, and the type checks say nothing about reads
 * from it (docs/type-checks.md), so an inserted skeleton would turn them off for every `input.x`.
 */
export function objectSchema(property: string): Snip {
  return obj([
    ["type", str("object")],
    ["properties", obj([[{ ph: "property", def: property }, obj([["type", str(choice("propertyType", PROPERTY_TYPES))]], true)]], false)],
  ], false);
}

/** `input` / `output`: an object schema with its first property to name. */
export function schemaSnippet(property: string): Snip {
  return obj([["schema", objectSchema(property)]], false);
}

/**
 * `permissions`: a model (the names the steps use as choices) as a block list item, then `tools` with
 * the cursor inside (the names the steps use, when there are any).
 */
export function permissionsSnippet(used: UsedNames): Snip {
  const models = arr([str(choice("pmodel", used.models.length ? used.models : [MODEL_DEFAULT]))], false);
  const tools = used.tools.length ? arr([str(choice("ptool", used.tools))], false) : emptyArr();
  return obj([["models", models], ["tools", tools]], false);
}

/** `steps`: a block list with one ai.generate step (the first thing every workflow needs). */
export function stepsSnippet(env: ShapeEnv): Snip {
  return arr([stepSnippet("ai.generate", env)], false);
}

/**
 * A whole new workflow (the "New workflow" completion and the empty document's quick fix): every key
 * the runtime requires, a model in permissions, and one ai.generate step that reads the input, so it
 * validates with no findings as expanded.
 */
export function newWorkflowSnippet(): Snip {
  const model = ph("model", MODEL_DEFAULT);
  return obj([
    ["apiVersion", str(API_VERSION)],
    ["kind", str(KIND)],
    ["metadata", metadataSnippet()],
    ["input", obj([["schema", obj([
      ["type", str("object")],
      ["properties", obj([["topic", obj([["type", str("string")]], true)]], false)],
      ["required", arr([str("topic")], true)],
    ], false)]], false)],
    ["output", obj([["schema", obj([["type", str("string")]], false)]], false)],
    ["permissions", obj([["models", arr([str(model)], false)]], false)],
    ["steps", arr([obj([
      ["id", str(ph("id", "generate"))],
      ["uses", str("ai.generate")],
      ["with", obj([["model", str(model)], ["prompt", str(ph("prompt", "Write a short text about "), "{{ input.topic }}")]], false)],
      ["output", obj([["mode", str(finalStop("text"))]], false)],
    ], false)], false)],
  ], false);
}
