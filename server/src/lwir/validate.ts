// validateLwir: the reference validator's rules, stage by stage (findings catalog, sections 2–5).
// Works on the parsed value as JSON or YAML gives it; never throws.
import { hashabilityProblem } from "./canonical";
import { checkSchema } from "./schema";
import { checkTemplateString, checkWholeTemplate, stepReferencesOf } from "./expressions";
import { inPlainObject } from "./jsObject";
import { sha256Hex } from "./sha256";
import { isCycle, reaches, stronglyConnected, type Graph } from "./graph";
import { type Path, ROOT, fileKey, index, key, pathString, segmentsOf } from "./path";
import type { Finding, FindingDetails, ReferenceDetails, ValidationResult } from "./types";

export const API_VERSION = "littleworkflow.dev/v0.1";
export const KIND = "Workflow";
export const STEP_TYPES = ["ai.generate", "tool.call", "code.run", "parallel", "decision"] as const;
export const OUTPUT_MODES = ["text", "object", "array", "choice", "json"] as const;
export const FAILURE_MODES = ["fail_fast", "all_settled"] as const;
export const FAN_IN_ORDERS = ["input", "itemKey"] as const;
/** "end" as a decision target finishes the current scope (catalog 3.10). */
export const END = "end";

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
const isNonEmptyString = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((e) => typeof e === "string");
const isInteger = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/** JavaScript's `v > n` / `v >= n` on a raw JSON value, as the reference compares maxVisits (quirk 9.7). */
function jsGreater(v: unknown, n: number): boolean {
  try { return (v as number) > n; } catch { return false; }
}
function jsAtLeast(v: unknown, n: number): boolean {
  try { return (v as number) >= n; } catch { return false; }
}

/** How many times `for (k = 0; k < v.length; k++)` runs on a value (JavaScript's `<` coerces length). */
function jsLength(v: unknown): number {
  let n = 0;
  try {
    const length = (v as { length?: unknown }).length;
    while (n < MAX_CASES_WALKED && n < (length as number)) n++;
  } catch { /* a length JavaScript cannot compare runs the loop zero times */ }
  return n;
}
const MAX_CASES_WALKED = 10_000;

/**
 * The cycle rule's test on one member, `(maxVisits ?? 1) >= 2` on the raw value (catalog 3.4): "2",
 * " 3" and [2] pass; values JavaScript cannot order ("x", "", {}, [1,2]) and true fail, so this is
 * not the same as "not below 2".
 */
export function visitsEnoughForCycle(step: Obj): boolean {
  return jsAtLeast(step.maxVisits ?? 1, 2);
}

/** Catalog 3.3: a step id is a non-empty string without `.`, `[`, `]` or `@attempt_`. */
export function stepIdProblem(id: unknown): string | undefined {
  if (id === undefined) return "The step has no id.";
  if (typeof id !== "string") return `The step id must be a string${not(id)}.`;
  if (id.length === 0) return "The step id must not be empty.";
  if (/[.[\]]/.test(id)) return `The step id "${id}" must not contain ".", "[" or "]".`;
  if (id.includes("@attempt_")) return `The step id "${id}" must not contain "@attempt_" (reserved for retries).`;
  return undefined;
}

/** Catalog 3.8: non-empty, relative, no backslash or NUL, no empty, "." or ".." segment. */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.startsWith("/") || p.includes("\\") || p.includes("\0")) return false;
  return p.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return v.length > 40 ? `the string "${v.slice(0, 40)}…"` : `the string ${JSON.stringify(v)}`;
  if (typeof v === "object") return "an object";
  if (v === undefined) return "missing";
  return `the ${typeof v} ${String(v)}`;
}

/** `"a", "b" and "c"`, `a, b or c`: lists in messages. */
function andList(items: readonly string[], word = "and"): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}
function orList(items: readonly string[]): string {
  return andList(items, "or");
}

/** The cause of a cycle finding first: which steps wait for each other. */
function loopOf(ids: readonly string[]): string {
  return ids.length === 1 ? `Step ${JSON.stringify(ids[0])} forms a loop on its own` : `Steps ${andList(ids.map((id) => JSON.stringify(id)))} form a loop`;
}

/** `, not <what v is>` after a "must be …", or `, but it is missing`. */
function not(v: unknown): string {
  return v === undefined ? ", but it is missing" : `, not ${describe(v)}`;
}

/** What the validator knows about a declared step, shared by the reference checks of every list. */
interface StepInfo {
  id: string;
  step: Obj;
  path: Path;
  /** Index in the flow graph of its own list. */
  node: number;
  /** Valid needs entries, in order. */
  needs: string[];
}

interface ListContext {
  /** True inside any parallel body: `item` expressions are allowed there. */
  itemAllowed: boolean;
  /** Steps of enclosing lists this list may depend on (catalog 3.4, external steps). */
  external: Map<string, StepInfo>;
  topLevel: boolean;
}

interface Reference {
  stepId: string;
  property: string | undefined;
  path: Path;
  /** Offsets of the reference in the string's value. */
  start: number;
  end: number;
}

class Validator {
  readonly findings: Finding[] = [];
  models: string[] | undefined;
  tools: string[] | undefined;

  constructor(private readonly plainData: boolean) {}

  /** `details` is built by the caller only when reporting, so the hot paths never materialise segments. */
  report(code: string, path: Path, message: string, details?: FindingDetails): void {
    const finding: Finding = { severity: "error", code, path: pathString(path), segments: segmentsOf(path), message };
    if (details) finding.details = details;
    this.findings.push(finding);
  }

  run(doc: unknown): void {
    const problem = hashabilityProblem(doc, this.plainData);
    if (problem !== undefined) {
      // The user's path (`input.schema`), not the finding path syntax (`$.input.schema`).
      const plain = problem.replace(/^cyclic reference/, "a value that contains itself (a YAML alias inside its own anchor)")
        .replace(/ at \$$/, " at the top of the document").replace(/ at \$\./, " at ");
      this.report("lwir.non_hashable", ROOT, `${plain[0].toUpperCase()}${plain.slice(1)}, so the document cannot be written as canonical JSON, which its WorkflowVersion is computed from.`);
      return;
    }
    if (!isObject(doc)) {
      this.report("schema.invalid", ROOT, `An LWIR document must be an object${not(doc)}.`);
      return;
    }
    this.topLevel(doc);
    for (const name of ["input", "output"] as const) {
      const part = doc[name];
      if (isObject(part) && "schema" in part) this.schema(part.schema, key(key(ROOT, name), "schema"));
    }
    const permissions = doc.permissions;
    if (isObject(permissions)) {
      if (isStringArray(permissions.models)) this.models = permissions.models;
      if (isStringArray(permissions.tools)) this.tools = permissions.tools;
    }
    if (Array.isArray(doc.steps)) {
      const stepsPath = key(ROOT, "steps");
      this.list(doc.steps, stepsPath, { itemAllowed: false, external: new Map(), topLevel: true });
      this.terminals(doc.steps, stepsPath);
    }
  }

  // ---- 3.1 document level ------------------------------------------------------------------

  topLevel(doc: Obj): void {
    if (doc.apiVersion !== API_VERSION) {
      this.report("schema.invalid", key(ROOT, "apiVersion"),
        `apiVersion must be "${API_VERSION}"${doc.apiVersion === undefined ? "" : not(doc.apiVersion)}.`);
    }
    if (doc.kind !== KIND) {
      this.report("schema.invalid", key(ROOT, "kind"), `kind must be "${KIND}"${doc.kind === undefined ? "" : not(doc.kind)}.`);
    }
    const metadata = doc.metadata;
    if (!isObject(metadata)) {
      this.report("schema.invalid", key(ROOT, "metadata"), "metadata is required and must be an object with a name.");
    } else if (!isNonEmptyString(metadata.name)) {
      this.report("schema.invalid", key(key(ROOT, "metadata"), "name"), "metadata.name is required and must be a non-empty string.");
    }
    for (const name of ["input", "output"] as const) {
      const part = doc[name];
      if (!isObject(part) || !("schema" in part)) {
        this.report("schema.invalid", key(ROOT, name), `${name} is required and must be an object with a schema (use {"schema": true} to accept anything).`);
      }
    }
    if (!Array.isArray(doc.steps)) {
      this.report("schema.invalid", key(ROOT, "steps"), `steps is required and must be an array of steps${doc.steps === undefined ? "" : not(doc.steps)}.`);
    }
    if (doc.permissions !== undefined) {
      const permissions = doc.permissions;
      const path = key(ROOT, "permissions");
      if (!isObject(permissions)) {
        this.report("schema.invalid", path, `permissions must be an object${not(permissions)}.`);
      } else {
        for (const name of ["models", "tools", "secrets", "network"] as const) {
          const entry = permissions[name];
          if (entry === undefined) continue;
          if (!isStringArray(entry)) {
            this.report("schema.invalid", key(path, name), `permissions.${name} must be an array of strings.`);
          } else if ((name === "secrets" || name === "network") && entry.length > 0) {
            this.report("schema.unimplemented_field", key(path, name),
              `permissions.${name} is not implemented by the alpha runtime and would be ignored; remove it or leave it empty.`);
          }
        }
      }
    }
  }

  schema(value: unknown, path: Path): void {
    const segments = segmentsOf(path);
    // The user's name for the schema: `input.schema`, or `output.schema` of the step the message sits in.
    const name = segments.length > 2 ? "output.schema" : segments.join(".");
    for (const problem of checkSchema(value, name)) {
      this.report("schema.invalid", path, problem.message, { kind: "schema", at: [...segments, ...problem.at] });
    }
  }

  // ---- 2.1 one list -----------------------------------------------------------------------

  list(entries: unknown[], listPath: Path, ctx: ListContext): void {
    // Declared steps first: decision targets and parallel bodies look them up while the list is checked.
    const declared = new Map<string, StepInfo>();
    const infos: StepInfo[] = [];
    for (let i = 0; i < entries.length; i++) {
      const step = entries[i];
      if (!isObject(step) || stepIdProblem(step.id) !== undefined) continue;
      const id = step.id as string;
      if (declared.has(id)) continue;
      const info: StepInfo = { id, step, path: index(listPath, i), node: infos.length, needs: validNeeds(step.needs) };
      declared.set(id, info);
      infos.push(info);
    }

    const seen = new Set<string>();
    for (let i = 0; i < entries.length; i++) {
      const step = entries[i];
      const path = index(listPath, i);
      if (!isObject(step)) {
        this.report("step.invalid", path, `A step must be an object${not(step)}.`);
        continue;
      }
      const idProblem = stepIdProblem(step.id);
      if (idProblem !== undefined) {
        this.report("step.invalid_id", key(path, "id"), idProblem);
        continue;
      }
      const id = step.id as string;
      // The first step with an id is the one in the flow graph; a duplicate gets only its per-step checks.
      const inGraph = !seen.has(id);
      if (!inGraph) {
        this.report("step.duplicate_id", key(path, "id"), `Another step in this list already has the id "${id}"; the first one wins.`,
          { kind: "duplicateId", first: segmentsOf(declared.get(id)!.path) });
      }
      seen.add(id);
      this.needsShape(step, path);
      this.step(step, path, ctx, declared, inGraph);
    }

    const graph = flowGraph(infos, declared);
    for (const info of infos) this.references(info, declared, ctx, graph);
    this.deadlocks(infos, declared);
    this.cycles(infos, graph, listPath);
  }

  needsShape(step: Obj, path: Path): void {
    const needs = step.needs;
    if (needs === undefined) return;
    const needsPath = key(path, "needs");
    if (!Array.isArray(needs)) {
      this.report("step.invalid_needs", needsPath, `needs must be an array of step ids${not(needs)}.`);
      return;
    }
    needs.forEach((entry, k) => {
      if (!isNonEmptyString(entry)) this.report("step.invalid_needs", index(needsPath, k), `A needs entry must be a non-empty step id${not(entry)}.`);
    });
  }

  // ---- 2.2 checks on one step ------------------------------------------------------------------

  step(step: Obj, path: Path, ctx: ListContext, declared: Map<string, StepInfo>, inGraph: boolean): void {
    const uses = step.uses;
    const known = (STEP_TYPES as readonly unknown[]).includes(uses);
    const usesPath = key(path, "uses");
    if (!known) {
      this.report("step.invalid_type", usesPath,
        `uses must be ${orList(STEP_TYPES)}${uses === undefined ? "" : not(uses)}.`);
    }
    if (uses === "parallel" && ctx.itemAllowed) {
      this.report("parallel.nested_unsupported", usesPath, "A parallel step cannot run inside another parallel step's body.");
    }
    if (step.cache !== undefined) {
      this.report("schema.unimplemented_field", key(path, "cache"), "cache is not implemented by the alpha runtime; remove it.");
    }
    const validOutputMode = uses !== "decision" ? this.outputContract(step, path) : undefined;
    if (uses === "decision" && step.output !== undefined) {
      this.report("decision.output_not_allowed", key(path, "output"), "A decision step produces no output; remove output.");
    }
    if (!known || uses === "ai.generate" || uses === "tool.call" || uses === "code.run") {
      this.templates(step.with, key(path, "with"), ctx.itemAllowed);
    }
    this.templates(step.input, key(path, "input"), ctx.itemAllowed);
    if (step.sensitive !== undefined && typeof step.sensitive !== "boolean") {
      this.report("step.sensitive_must_be_boolean", key(path, "sensitive"), `sensitive must be true or false${not(step.sensitive)}.`);
    }
    if (step.maxVisits !== undefined && !(isInteger(step.maxVisits) && step.maxVisits >= 1 && step.maxVisits <= 100)) {
      this.report("step.max_visits_out_of_range", key(path, "maxVisits"), `maxVisits must be an integer from 1 to 100${not(step.maxVisits)}.`);
    }
    const withPath = key(path, "with");
    switch (uses) {
      case "ai.generate": this.allowed(step.with, withPath, "model", this.models); break;
      case "tool.call": this.allowed(step.with, withPath, "tool", this.tools); break;
      case "code.run": this.codeRun(step.with, withPath); break;
      case "decision": this.decision(step.with, withPath, ctx, declared, inGraph); break;
    }
    if (known) this.onFailure(step, path, uses as string);
    if (uses === "parallel") {
      if (validOutputMode !== undefined && validOutputMode !== "array") {
        this.report("output.invalid_for_step", key(key(path, "output"), "mode"), `A parallel step's output mode must be "array", not "${validOutputMode}".`);
      }
      this.parallel(step, path, ctx, declared);
      this.fanInEnvelope(step.output, key(path, "output"));
    }
  }

  /** 3.5; returns the output mode when it is valid. */
  outputContract(step: Obj, path: Path): string | undefined {
    const output = step.output;
    const outputPath = key(path, "output");
    if (!isObject(output)) {
      this.report("output.invalid", outputPath, output === undefined
        ? `The step needs an output, e.g. {"mode": "text"}.`
        : `output must be an object with a mode (${OUTPUT_MODES.join(", ")})${not(output)}.`);
      return undefined;
    }
    const mode = output.mode;
    if (!(OUTPUT_MODES as readonly unknown[]).includes(mode)) {
      this.report("output.invalid", outputPath, `output.mode must be ${orList(OUTPUT_MODES)}${mode === undefined ? "" : not(mode)}.`);
      return undefined;
    }
    for (const name of ["name", "description"] as const) {
      if (output[name] !== undefined && typeof output[name] !== "string") {
        this.report("output.invalid_metadata", key(outputPath, name), `output.${name} must be a string${not(output[name])}.`);
      }
    }
    const schemaPath = key(outputPath, "schema");
    if (mode === "object" || mode === "array") {
      if (output.schema === undefined) this.report("output.missing_schema", schemaPath, `Output mode "${mode}" needs a schema.`);
      else this.schema(output.schema, schemaPath);
    } else if (mode === "json") {
      if (output.schema !== undefined) this.schema(output.schema, schemaPath);
    } else if (mode === "choice") {
      const values = output.values;
      const valuesPath = key(outputPath, "values");
      if (!Array.isArray(values)) {
        this.report("output.missing_values", valuesPath, `Output mode "choice" needs values: an array of strings.`);
      } else {
        values.forEach((v, k) => {
          if (typeof v !== "string") this.report("output.invalid_values", index(valuesPath, k), `A choice value must be a string${not(v)}.`);
        });
      }
    }
    return mode as string;
  }

  /** 3.6 source 1: every string inside `value` (iteratively; keys are never checked). */
  templates(value: unknown, path: Path, itemAllowed: boolean): void {
    if (value === undefined || value === null) return;
    const stack: Array<[unknown, Path]> = [[value, path]];
    while (stack.length > 0) {
      const [v, p] = stack.pop()!;
      if (typeof v === "string") {
        if (v.indexOf("{{") === -1 && v.indexOf("}}") === -1) continue;
        const check = checkTemplateString(v, itemAllowed);
        if (check.status === "malformed" || check.status === "unsafe") {
          this.report("expression.invalid", p, check.message ?? `The template is ${check.status}.`);
        }
      } else if (Array.isArray(v)) {
        for (let k = v.length - 1; k >= 0; k--) stack.push([v[k], index(p, k)]);
      } else if (isObject(v)) {
        const keys = Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) stack.push([v[keys[k]], key(p, keys[k])]);
      }
    }
  }

  /** 3.7: `with.model` / `with.tool` present and in the allow-list from permissions. */
  allowed(withValue: unknown, withPath: Path, field: "model" | "tool", allowList: string[] | undefined): void {
    const name = isObject(withValue) ? withValue[field] : undefined;
    const path = key(withPath, field);
    const plural = `${field}s`;
    if (!isNonEmptyString(name)) {
      this.report(`${field}.missing`, path, `with.${field} is required and must be a non-empty string.`);
    } else if (!allowList || !allowList.includes(name)) {
      this.report(`${field}.disallowed`, path, `The ${field} "${name}" is not listed in permissions.${plural}.`, { kind: "name", name });
    }
  }

  /** 3.8 */
  codeRun(withValue: unknown, withPath: Path): void {
    if (!isObject(withValue)) {
      this.report("code.invalid_config", withPath, `A code.run step needs with: an object with entrypoint, files and sandbox${not(withValue)}.`);
      return;
    }
    const { entrypoint, files } = withValue;
    const entryPath = key(withPath, "entrypoint");
    if (!isNonEmptyString(entrypoint)) {
      this.report("code.missing_entrypoint", entryPath, "with.entrypoint is required: the .ts file to run, one of the files.");
    } else if (!isSafeRelativePath(entrypoint) || !entrypoint.endsWith(".ts")) {
      this.report("code.invalid_entrypoint", entryPath, `The entrypoint "${entrypoint}" must be a safe relative path ending in .ts.`);
    }
    const filesPath = key(withPath, "files");
    const fileNames = isObject(files) ? Object.keys(files) : [];
    // The reference uses `in`, so inherited names such as "toString" count as files (catalog 3.8).
    if (fileNames.length > 0 && typeof entrypoint === "string" && !inPlainObject(entrypoint, files as Obj)) {
      this.report("code.invalid_entrypoint", entryPath, `The entrypoint "${entrypoint}" is not one of the files.`);
    }
    if (fileNames.length === 0) {
      this.report("code.missing_files", filesPath, "with.files is required: an object of file name → {content, sha256}.");
    }
    for (const name of fileNames) {
      const filePath = fileKey(filesPath, name);
      if (!isSafeRelativePath(name)) this.report("code.invalid_file_path", filePath, `The file name "${name}" must be a safe relative path.`);
      const file = (files as Obj)[name];
      if (!isObject(file)) {
        this.report("code.invalid_file", filePath, `A file must be an object with content and sha256${not(file)}.`);
        continue;
      }
      const content = file.content;
      if (typeof content !== "string") this.report("code.invalid_file", key(filePath, "content"), `The file's content must be a string${not(content)}.`);
      const digest = file.sha256;
      const digestPath = key(filePath, "sha256");
      if (typeof digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(digest)) {
        this.report("code.invalid_file_hash", digestPath, `sha256 must be "sha256:" followed by 64 lower-case hex digits of the content's SHA-256.`);
      } else if (typeof content === "string") {
        const actual = "sha256:" + sha256Hex(content);
        if (actual !== digest) this.report("code.invalid_file_hash", digestPath, `sha256 does not match the content; the content's digest is ${actual}.`);
      }
    }
    const sandboxPath = key(withPath, "sandbox");
    if (!("sandbox" in withValue) || withValue.sandbox === undefined) {
      this.report("code.missing_sandbox", sandboxPath, `with.sandbox is required, e.g. {"network": "deny"}.`);
      return;
    }
    const sandbox = withValue.sandbox;
    if (!isObject(sandbox)) {
      this.report("code.invalid_sandbox", sandboxPath, `sandbox must be an object${not(sandbox)}.`);
      return;
    }
    const denies = (v: unknown) => v === "deny" || v === false;
    if (!denies(sandbox.network)) this.report("code.invalid_sandbox", key(sandboxPath, "network"), `sandbox.network must be "deny" (or false)${sandbox.network === undefined ? " and must be stated" : ""}.`);
    for (const name of ["env", "fs"] as const) {
      if (sandbox[name] !== undefined && !denies(sandbox[name])) {
        this.report("code.invalid_sandbox", key(sandboxPath, name), `sandbox.${name} must be "deny" or false when present.`);
      }
    }
  }

  /** 3.10: default, cases, targets in scope. */
  decision(withValue: unknown, withPath: Path, ctx: ListContext, declared: Map<string, StepInfo>, inGraph: boolean): void {
    const w = isObject(withValue) ? withValue : {};
    const defaultPath = key(withPath, "default");
    if (!isNonEmptyString(w.default)) {
      this.report("decision.default_required", defaultPath, `A decision needs with.default: the step to go to when no case matches, or "end".`);
    }
    const targets = new Set<string>();
    if (isNonEmptyString(w.default)) targets.add(w.default);
    const cases = w.cases;
    const casesPath = key(withPath, "cases");
    if (inGraph && cases !== undefined && cases !== null && !Array.isArray(cases) && typeof cases !== "string") {
      // The reference throws building the flow graph on a non-iterable cases (catalog 9.1); this
      // project reports it once instead (section 11).
      this.report("decision.case_invalid", casesPath, `cases must be an array of {when, to}${not(cases)}.`);
    } else if (cases !== undefined && cases !== null) {
      // The reference's per-step walk: `for (k = 0; k < cases.length; k++)` on whatever cases is, so a
      // string is walked by character, {length: 2} gives two cases, a number or boolean none. The
      // bound keeps a {length: 1e9} from hanging the editor; no real document comes near it.
      const length = jsLength(cases);
      for (let k = 0; k < length; k++) {
        const c: unknown = (cases as Record<number, unknown>)[k];
        const casePath = index(casesPath, k);
        if (!isObject(c) || typeof c.when !== "string" || !isNonEmptyString(c.to)) {
          this.report("decision.case_invalid", casePath, `A case needs when (a template string) and to (a step id or "end").`);
          continue;
        }
        const problem = checkWholeTemplate(c.when, ctx.itemAllowed, false, "when");
        if (problem !== undefined) this.report("expression.invalid", key(casePath, "when"), problem);
        targets.add(c.to);
      }
    }
    for (const target of targets) {
      if (target !== END && !declared.has(target)) {
        this.report("decision.target_not_in_scope", withPath, `The decision target "${target}" is not a step of this decision's list.`,
          { kind: "decisionTarget", target });
      }
    }
  }

  /** 3.9: repair before fixer. */
  onFailure(step: Obj, path: Path, uses: string): void {
    const onFailure = step.onFailure;
    if (onFailure === undefined) return;
    const onFailurePath = key(path, "onFailure");
    if (!isObject(onFailure)) {
      this.report("fixer.invalid_config", onFailurePath, `onFailure must be an object${not(onFailure)}.`);
      return;
    }
    const repair = onFailure.repair;
    if (repair !== undefined) {
      const repairPath = key(onFailurePath, "repair");
      if (!isObject(repair)) {
        this.report("repair.invalid_config", repairPath, `onFailure.repair must be an object${not(repair)}.`);
      } else {
        if (uses !== "ai.generate") this.report("repair.unsupported_step", repairPath, `Only ai.generate steps can use onFailure.repair, not ${uses}.`);
        const modePath = key(repairPath, "mode");
        if (repair.mode !== "self" && repair.mode !== "escalate") {
          this.report("repair.invalid_mode", modePath, `repair.mode must be "self"${repair.mode === undefined ? "" : not(repair.mode)}.`);
        } else if (repair.mode === "escalate") {
          this.report("schema.unimplemented_field", modePath, `repair.mode "escalate" is not implemented by the alpha runtime; use "self".`);
        }
        if (!(isInteger(repair.maxAttempts) && repair.maxAttempts >= 1)) {
          this.report("repair.invalid_max_attempts", key(repairPath, "maxAttempts"), `repair.maxAttempts must be an integer of at least 1.`);
        }
        if (repair.model !== undefined) {
          this.report("schema.unimplemented_field", key(repairPath, "model"), `repair.model is not implemented by the alpha runtime; remove it.`);
        }
      }
    }
    const fixer = onFailure.fixer;
    if (fixer !== undefined) {
      const fixerPath = key(onFailurePath, "fixer");
      if (!isObject(fixer)) {
        this.report("fixer.invalid_config", fixerPath, `onFailure.fixer must be an object${not(fixer)}.`);
        return;
      }
      if (uses !== "code.run") this.report("fixer.unsupported_step", fixerPath, `Only code.run steps can use onFailure.fixer, not ${uses}.`);
      const modelPath = key(fixerPath, "model");
      if (!isNonEmptyString(fixer.model)) {
        this.report("fixer.model.missing", modelPath, "fixer.model is required and must be a non-empty string.");
      } else if (!this.models || !this.models.includes(fixer.model)) {
        this.report("fixer.model.disallowed", modelPath, `The model "${fixer.model}" is not listed in permissions.models.`, { kind: "name", name: fixer.model });
      }
      if (!(isInteger(fixer.maxAttempts) && fixer.maxAttempts >= 1)) {
        this.report("fixer.max_attempts_invalid", key(fixerPath, "maxAttempts"), "fixer.maxAttempts must be an integer of at least 1.");
      }
      if (!isNonEmptyString(fixer.system)) {
        this.report("fixer.system_missing", key(fixerPath, "system"), "fixer.system is required: the instructions for the fixer model.");
      }
    }
  }

  /** 3.11: the `with` rules and the body. */
  parallel(step: Obj, path: Path, ctx: ListContext, declared: Map<string, StepInfo>): void {
    const withPath = key(path, "with");
    const w = step.with;
    if (!isObject(w)) {
      this.report("parallel.invalid", withPath, `A parallel step needs with: an object with items, itemKey, cardinality, maxBranches, maxConcurrency, failureMode and fanIn${not(w)}.`);
      return;
    }
    const itemsProblem = typeof w.items === "string" ? checkWholeTemplate(w.items, ctx.itemAllowed, false, "items") : `items must be a template string such as "{{ input.list }}"${not(w.items)}.`;
    if (itemsProblem !== undefined) this.report("parallel.invalid_items", key(withPath, "items"), itemsProblem);
    const keyProblem = typeof w.itemKey === "string" ? checkWholeTemplate(w.itemKey, true, true, "itemKey") : `itemKey must be a template string that uses item, such as "{{ item.id }}"${not(w.itemKey)}.`;
    if (keyProblem !== undefined) this.report("parallel.invalid_item_key", key(withPath, "itemKey"), keyProblem);
    const cardinality = w.cardinality;
    if (!isObject(cardinality) || cardinality.kind !== "matches_items") {
      this.report("parallel.invalid_cardinality", key(key(withPath, "cardinality"), "kind"), `with.cardinality must be {"kind": "matches_items"}.`);
    }
    const maxBranches = w.maxBranches;
    if (!(isInteger(maxBranches) && maxBranches >= 1 && maxBranches <= 100)) {
      this.report("parallel.invalid_branches", key(withPath, "maxBranches"), `maxBranches must be an integer from 1 to 100${not(maxBranches)}.`);
    }
    const maxConcurrency = w.maxConcurrency;
    if (!(isInteger(maxConcurrency) && maxConcurrency >= 1) || (isInteger(maxBranches) && (maxConcurrency as number) > maxBranches)) {
      this.report("parallel.invalid_concurrency", key(withPath, "maxConcurrency"),
        `maxConcurrency must be an integer of at least 1${isInteger(maxBranches) ? ` and at most maxBranches (${maxBranches})` : ""}${not(maxConcurrency)}.`);
    }
    if (!(FAILURE_MODES as readonly unknown[]).includes(w.failureMode)) {
      this.report("parallel.invalid_failure_mode", key(withPath, "failureMode"), `failureMode must be "fail_fast" or "all_settled"${not(w.failureMode)}.`);
    }
    const fanIn = w.fanIn;
    const fanInPath = key(withPath, "fanIn");
    if (!isObject(fanIn)) {
      this.report("parallel.invalid_fan_in", fanInPath, `fanIn must be an object like {"order": "input", "output": "array"}${not(fanIn)}.`);
    } else {
      if (!(FAN_IN_ORDERS as readonly unknown[]).includes(fanIn.order)) {
        this.report("parallel.invalid_fan_in", key(fanInPath, "order"), `fanIn.order must be "input" or "itemKey"${not(fanIn.order)}.`);
      }
      if (fanIn.output !== "array") {
        this.report("parallel.invalid_fan_in", key(fanInPath, "output"), `fanIn.output must be "array"${not(fanIn.output)}.`);
      }
      if (fanIn.outputStep !== undefined) {
        const body = Array.isArray(step.steps) ? step.steps : [];
        const target = body.find((s) => isObject(s) && s.id === fanIn.outputStep);
        if (!isObject(target) || target.uses === "decision") {
          this.report("parallel.fan_in_output_step_invalid", key(fanInPath, "outputStep"), target === undefined
            ? `fanIn.outputStep names no step of this parallel body.`
            : `fanIn.outputStep cannot name a decision step: decisions produce no output.`);
        }
      }
    }
    const steps = step.steps;
    const stepsPath = key(path, "steps");
    if (!Array.isArray(steps) || steps.length === 0) {
      this.report("parallel.missing_steps", stepsPath, "A parallel step needs steps: a non-empty array, its body.");
    }
    if (Array.isArray(steps)) {
      // External steps of the body: the parent's needs declared in the parent's list, plus what the parent sees.
      const external = new Map(ctx.external);
      for (const id of validNeeds(step.needs)) {
        const info = declared.get(id);
        if (info) external.set(id, info);
      }
      this.list(steps, stepsPath, { itemAllowed: true, external, topLevel: false });
    }
  }

  /** 3.11: a parallel step's array output must describe the fan-in envelope. */
  fanInEnvelope(output: unknown, outputPath: Path): void {
    if (!isObject(output) || output.mode !== "array") return;
    const schemaPath = key(outputPath, "schema");
    const schema = output.schema;
    if (!isObject(schema)) {
      this.report("parallel.invalid_fan_in", schemaPath, "A parallel step's output schema must be an array schema whose items describe the fan-in envelope.");
      return;
    }
    const items = schema.items;
    const ok = isObject(items)
      && (items.type === undefined || items.type === "object" || (Array.isArray(items.type) && items.type.includes("object")))
      && isStringArray(items.required) && ["itemKey", "status", "artifacts"].every((k) => (items.required as string[]).includes(k))
      && isObject(items.properties) && ["itemKey", "status", "artifacts"].every((k) => k in (items.properties as Obj))
      && ["output", "outputRef", "error"].some((k) => k in (items.properties as Obj));
    if (!ok) {
      this.report("parallel.invalid_fan_in", key(schemaPath, "items"),
        "The items schema must describe the fan-in envelope: an object requiring itemKey, status and artifacts, with properties for them and one of output, outputRef or error.");
    }
  }

  // ---- 3.4 references, deadlocks, cycles --------------------------------------------------------

  references(info: StepInfo, declared: Map<string, StepInfo>, ctx: ListContext, graph: Graph): void {
    const needsPath = key(info.path, "needs");
    info.needs.forEach((id, k) => {
      if (!declared.has(id) && !ctx.external.has(id)) {
        this.report("step.missing_dependency", index(needsPath, k), `needs names "${id}", which is not a step of this list${ctx.topLevel ? "" : " nor one the parallel step needs"}.`,
          { kind: "needsEntry", stepId: id, needsIndex: writtenIndex(info.step.needs as unknown[], k) });
      }
    });
    const refs: Reference[] = [];
    collectReferences(info.step.with, key(info.path, "with"), refs);
    collectReferences(info.step.input, key(info.path, "input"), refs);
    for (const ref of refs) {
      const local = declared.get(ref.stepId);
      const target = local ?? ctx.external.get(ref.stepId);
      if (!target) {
        this.report("step.missing_dependency", ref.path, `steps.${ref.stepId} names no step this step can read${ctx.topLevel ? "" : " (a body step can read its own list and the steps its parallel step needs)"}.`,
          referenceDetails(ref, info, undefined, false));
        continue;
      }
      const output = target.step.output;
      if (isObject(output) && output.mode === "json" && output.schema === undefined) {
        this.report("output.missing_schema", key(key(target.path, "output"), "schema"),
          `Step "${target.id}" has output mode "json" without a schema, but other steps read its output; add a schema.`,
          referenceDetails(ref, info, target, local === undefined));
      }
      if (ref.property === "output" && jsGreater(target.step.maxVisits, 1)) {
        this.report("lwir.output_ambiguous_for_multi_visit", ref.path,
          `Step "${target.id}" can run more than once (maxVisits ${String(target.step.maxVisits)}); read steps.${target.id}.lastOutput or .allVisits instead of .output.`,
          referenceDetails(ref, info, target, local === undefined));
      }
      if (!info.needs.includes(ref.stepId)) {
        const backEdge = (ref.property === "lastOutput" || ref.property === "allVisits") && local !== undefined && reaches(graph, local.node, info.node);
        if (!backEdge) {
          this.report("step.undeclared_dependency", ref.path, `This step reads steps.${ref.stepId} but does not list "${ref.stepId}" in its needs.`,
            referenceDetails(ref, info, target, local === undefined));
        }
      }
    }
  }

  deadlocks(infos: StepInfo[], declared: Map<string, StepInfo>): void {
    const targets = new Set<string>();
    for (const info of infos) if (info.step.uses === "decision") for (const t of decisionTargets(info.step)) targets.add(t);
    const guarded = (id: string) => {
      const target = declared.get(id);
      return targets.has(id) && target !== undefined && Array.isArray(target.step.needs) && target.step.needs.length > 0;
    };
    for (const info of infos) {
      if (info.step.uses === "decision" || targets.has(info.id)) continue;
      for (const need of info.needs) {
        if (guarded(need)) {
          this.report("lwir.decision_target_referenced_by_needs", key(info.path, "needs"),
            `"${need}" is a decision target with needs of its own, so it may never run and this step could wait forever.`,
            { kind: "guardedTarget", stepId: need, target: segmentsOf(declared.get(need)!.path) });
        }
      }
    }
  }

  cycles(infos: StepInfo[], graph: Graph, listPath: Path): void {
    for (const component of stronglyConnected(graph)) {
      if (!isCycle(graph, component)) continue;
      const names = component.map((n) => infos[n].id);
      const short = component.filter((n) => !visitsEnoughForCycle(infos[n].step));
      if (short.length > 0) {
        this.report("lwir.invalid_cycle", listPath,
          `${loopOf(names)}, but ${andList(short.map((n) => JSON.stringify(infos[n].id)))} ${short.length === 1 ? "has" : "have"} no maxVisits of at least 2: every step on a loop must be allowed to run more than once.`,
          { kind: "cycle", reason: "maxVisits", cycle: component.map((n) => segmentsOf(infos[n].path)), below: short.map((n) => segmentsOf(infos[n].path)) });
        continue;
      }
      // Without its decision steps, does the component still hold a cycle? (A small subgraph of its own.)
      const rest = component.filter((n) => infos[n].step.uses !== "decision");
      const local = new Map(rest.map((n, i) => [n, i]));
      const sub: Graph = rest.map((n) => graph[n].filter((w) => local.has(w)).map((w) => local.get(w)!));
      for (const part of stronglyConnected(sub)) {
        if (isCycle(sub, part)) {
          this.report("lwir.invalid_cycle", listPath,
            `${loopOf(part.map((i) => infos[rest[i]].id))} with no decision step on it to leave it.`,
            { kind: "cycle", reason: "decision", cycle: part.map((i) => segmentsOf(infos[rest[i]].path)) });
        }
      }
    }
  }

  /** 3.1: more than one top-level step that nothing needs and no decision targets. */
  terminals(entries: unknown[], stepsPath: Path): void {
    const indexes = terminalIndexes(entries);
    if (indexes.length > 1) {
      const terminal = indexes.map((i) => (entries[i] as Obj).id as string);
      this.report("terminal.ambiguous", stepsPath,
        `Exactly one final step must produce the workflow's output, but ${terminal.length} steps are needed by no other step: ${terminal.map((t) => JSON.stringify(t)).join(", ")}.`,
        { kind: "terminals", terminals: indexes.map((i) => segmentsOf(index(stepsPath, i))) });
    }
  }
}

/**
 * Indexes of the "terminal" entries of a top-level list (catalog 3.1): objects with a string id (any,
 * even invalid or duplicated), not decisions, named in no entry's needs and targeted by no decision.
 */
export function terminalIndexes(entries: unknown[]): number[] {
  const needed = new Set<string>();
  const targets = new Set<string>();
  for (const e of entries) {
    if (!isObject(e)) continue;
    if (Array.isArray(e.needs)) for (const n of e.needs) if (typeof n === "string") needed.add(n);
    if (e.uses === "decision") for (const t of decisionTargets(e)) targets.add(t);
  }
  const out: number[] = [];
  entries.forEach((e, i) => {
    if (isObject(e) && typeof e.id === "string" && e.uses !== "decision" && !needed.has(e.id) && !targets.has(e.id)) out.push(i);
  });
  return out;
}

/** The index, in the array as written, of the k-th valid needs entry (finding paths count valid entries only, catalog 9.3). */
function writtenIndex(needs: unknown[], k: number): number {
  let valid = -1;
  return needs.findIndex((e) => isNonEmptyString(e) && ++valid === k);
}

/** Details of a reference finding; called only when one is reported. */
function referenceDetails(ref: Reference, reader: StepInfo, target: StepInfo | undefined, external: boolean): ReferenceDetails {
  return {
    kind: "reference",
    stepId: ref.stepId,
    ...(ref.property !== undefined ? { property: ref.property } : {}),
    ...(target ? { target: segmentsOf(target.path), external } : {}),
    from: segmentsOf(reader.path),
    stringPath: segmentsOf(ref.path),
    start: ref.start,
    end: ref.end,
  };
}

/** Valid needs entries: the non-empty strings of a needs array, in order. */
export function validNeeds(needs: unknown): string[] {
  return Array.isArray(needs) ? needs.filter(isNonEmptyString) : [];
}

/** Targets of a decision step (strings other than "end") from cases with a string `to`, and default. */
export function decisionTargets(step: Obj): string[] {
  const out: string[] = [];
  const w = step.with;
  if (!isObject(w)) return out;
  if (Array.isArray(w.cases)) {
    for (const c of w.cases) if (isObject(c) && typeof c.to === "string" && c.to !== END) out.push(c.to);
  }
  if (typeof w.default === "string" && w.default !== END) out.push(w.default);
  return out;
}

/** Flow graph of a list: needs edges and decision edges between its declared steps (catalog 3.4). */
function flowGraph(infos: StepInfo[], declared: Map<string, StepInfo>): Graph {
  const graph: Graph = infos.map(() => []);
  for (const info of infos) {
    for (const need of info.needs) {
      const from = declared.get(need);
      if (from) graph[from.node].push(info.node);
    }
    if (info.step.uses === "decision") {
      for (const t of decisionTargets(info.step)) {
        const to = declared.get(t);
        if (to) graph[info.node].push(to.node);
      }
    }
  }
  return graph;
}

/** Step references in every scannable string of `value` (catalog 5.8), with the string's path. */
function collectReferences(value: unknown, path: Path, out: Reference[]): void {
  if (value === undefined || value === null) return;
  const stack: Array<[unknown, Path]> = [[value, path]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (typeof v === "string") {
      if (v.indexOf("steps") === -1) continue;
      for (const r of stepReferencesOf(v)) out.push({ stepId: r.stepId, property: r.property, path: p, start: r.start, end: r.end });
    } else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push([v[k], index(p, k)]);
    } else if (isObject(v)) {
      const keys = Object.keys(v);
      for (let k = keys.length - 1; k >= 0; k--) stack.push([v[keys[k]], key(p, keys[k])]);
    }
  }
}

export interface ValidateOptions {
  /**
   * The value is known to hold only plain data properties (it comes from JSON.parse, or from a YAML
   * parser's conversion), so the hashability check may skip property-descriptor inspection.
   */
  plainData?: boolean;
}

export function validateLwir(value: unknown, options: ValidateOptions = {}): ValidationResult {
  const validator = new Validator(options.plainData === true);
  try {
    validator.run(value);
  } catch (error) {
    // Never reached by design; kept so an editor never loses its server to a bug in a rule.
    validator.findings.length = 0;
    validator.report("lwir.non_hashable", ROOT, `The validator failed on this document: ${error instanceof Error ? error.message : String(error)}.`);
  }
  return { valid: validator.findings.length === 0, findings: validator.findings };
}
