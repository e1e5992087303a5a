// Shared builders for the validateLwir unit tests. Every builder returns a fresh, valid value
// (findings catalog sections 3–4), so a test changes exactly one thing and asserts the exact
// multiset of {path, code} that change must produce.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { validateLwir } from "../../server/src/lwir/validate";

// Documents are deliberately loosely typed: tests put wrong values anywhere.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const API_VERSION = "littleworkflow.dev/v0.1";

/** "sha256:" + lower-case hex SHA-256 of the UTF-8 bytes (computed independently of the validator). */
export function sha256Of(content: string): string {
  return "sha256:" + createHash("sha256").update(content, "utf8").digest("hex");
}

/** A plain text output; the default for builders. */
export function textOutput(): Json {
  return { mode: "text" };
}

/** A small valid workflow: a tool.call step feeding an ai.generate step (one terminal). */
export function baseWorkflow(): Json {
  return {
    apiVersion: API_VERSION,
    kind: "Workflow",
    metadata: { name: "fixture-workflow", version: "0.1.0" },
    input: {
      schema: {
        type: "object",
        required: ["topic"],
        properties: { topic: { type: "string" }, list: { type: "array", items: { type: "string" } } },
      },
    },
    // the final step (write) gives text: a workflow that declares an object would fail every run (run-time checks)
    output: { schema: { type: "string" } },
    permissions: { models: ["model-a", "model-b"], tools: ["search", "fetch"], secrets: [], network: [] },
    steps: [
      {
        id: "gather",
        uses: "tool.call",
        with: { tool: "search", args: { query: "{{ input.topic }}" } },
        output: { mode: "text" },
      },
      {
        id: "write",
        uses: "ai.generate",
        needs: ["gather"],
        with: { model: "model-a", prompt: "Summarise {{ steps.gather.output }} about {{ input.topic }}" },
        output: { mode: "text" },
      },
    ],
  };
}

/** The base workflow with its top-level steps replaced. */
export function withSteps(steps: Json[]): Json {
  const doc = baseWorkflow();
  doc.steps = steps;
  return doc;
}

/** ai.generate step using an allowed model. */
export function aiStep(id: string, extra: Json = {}): Json {
  return { id, uses: "ai.generate", with: { model: "model-a", prompt: "Write about {{ input.topic }}" }, output: textOutput(), ...extra };
}

/** tool.call step using an allowed tool. */
export function toolStep(id: string, extra: Json = {}): Json {
  return { id, uses: "tool.call", with: { tool: "search", args: { q: "x" } }, output: textOutput(), ...extra };
}

/** A decision step; `w` becomes its `with`. */
export function decisionStep(id: string, w: Json, extra: Json = {}): Json {
  return { id, uses: "decision", with: w, ...extra };
}

/** Files for code.run with correct digests. */
export function codeFiles(files: Record<string, string>): Json {
  const out: Json = {};
  for (const [name, content] of Object.entries(files)) out[name] = { content, sha256: sha256Of(content) };
  return out;
}

export const MAIN_TS = "export default async function main(input: unknown) {\n  return { ok: true, input };\n}\n";
export const UTIL_TS = "export const twice = (n: number) => n * 2;\n";

/** A valid code.run step: entrypoint main.ts, two files with correct digests, deny-all sandbox. */
export function codeRunStep(id: string, extra: Json = {}): Json {
  return {
    id,
    uses: "code.run",
    with: {
      entrypoint: "main.ts",
      files: codeFiles({ "main.ts": MAIN_TS, "lib/util.ts": UTIL_TS }),
      sandbox: { network: "deny", env: "deny", fs: false },
    },
    output: { mode: "object", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
    ...extra,
  };
}

/** The fan-in envelope output a parallel step must declare (catalog 4, parallel). */
export function fanInOutput(): Json {
  return {
    mode: "array",
    schema: {
      type: "array",
      items: {
        type: "object",
        required: ["itemKey", "status", "artifacts"],
        properties: {
          itemKey: { type: "string" },
          status: { type: "string" },
          output: true,
          artifacts: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
}

/** A valid `with` for a top-level parallel step. */
export function parallelWith(extra: Json = {}): Json {
  return {
    items: "{{ input.list }}",
    itemKey: "{{ item }}",
    cardinality: { kind: "matches_items" },
    maxBranches: 10,
    maxConcurrency: 2,
    failureMode: "fail_fast",
    fanIn: { order: "input", output: "array" },
    ...extra,
  };
}

/** A valid parallel step; the default body is one ai.generate step reading `item`. */
export function parallelStep(id: string, body?: Json[], extra: Json = {}): Json {
  return {
    id,
    uses: "parallel",
    with: parallelWith(),
    steps: body ?? [aiStep(`${id}-one`, { with: { model: "model-a", prompt: "Handle {{ item }}" } })],
    output: fanInOutput(),
    ...extra,
  };
}

/** Asserts the finding invariants (severity "error", non-empty message, path string) and returns the result. */
export function validate(doc: unknown) {
  const result = validateLwir(doc);
  assert.equal(typeof result.valid, "boolean");
  assert.ok(Array.isArray(result.findings));
  for (const f of result.findings) {
    assert.equal(f.severity, "error", `severity of ${f.code} at ${f.path}`);
    assert.equal(typeof f.message, "string");
    assert.ok(f.message.length > 0, `empty message for ${f.code} at ${f.path}`);
    assert.equal(typeof f.code, "string");
    assert.ok(typeof f.path === "string" && f.path.startsWith("$"), `path ${f.path}`);
  }
  assert.equal(result.valid, result.findings.length === 0);
  return result;
}

/** Sorted `"path code"` strings: a multiset of findings that compares with deepEqual. */
export function findings(doc: unknown): string[] {
  return validate(doc).findings.map((f) => `${f.path} ${f.code}`).sort();
}

/** Asserts the exact multiset of findings, given as `"path code"` strings in any order. */
export function expectFindings(doc: unknown, expected: string[], message?: string): void {
  assert.deepEqual(findings(doc), [...expected].sort(), message);
}

/** Asserts the document is valid. */
export function expectValid(doc: unknown, message?: string): void {
  expectFindings(doc, [], message);
}

/** A deep copy of plain JSON data. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
