// Where the tests find their data, all inside the repository: the labelled corpus (test/corpus) and our
// workflow generator (bench/generate.mjs). Listing a corpus folder fails loudly when it is missing or
// holds fewer cases than it should, so a broken checkout can never pass by running fewer cases.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = process.cwd();
export const CORPUS = join(ROOT, "test", "corpus");
export const CONFORMANCE = join(CORPUS, "conformance");
export const SYNTAX = join(CONFORMANCE, "syntax");
export const REALWORLD = join(CORPUS, "realworld");
export const GENERATOR = join(ROOT, "bench", "generate.mjs");

/** How many cases each folder holds (a folder's own files, not its subfolders). */
export const CASE_COUNTS: Record<string, number> = { [CONFORMANCE]: 354, [SYNTAX]: 14, [REALWORLD]: 46 };

export interface Label {
  findings: Array<{ code: string; path: string }>;
  valid: boolean;
  workflowVersionId: string | null;
  parseError?: boolean;
}
export interface CorpusCase {
  /** File name of the document, e.g. `model-disallowed--typo.lwir.yaml`. */
  name: string;
  file: string;
  format: "json" | "yaml";
  label: Label;
}

/** The cases of one folder (not its subfolders); throws unless there are exactly as many as it should hold. */
export function corpusCases(dir: string): CorpusCase[] {
  if (!existsSync(dir)) throw new Error(`corpus folder ${dir} is missing`);
  const cases: CorpusCase[] = [];
  for (const name of readdirSync(dir).sort()) {
    const m = /^(.*)\.lwir\.(json|yaml|yml)$/.exec(name);
    if (!m) continue;
    const labelFile = join(dir, `${m[1]}.expected.json`);
    if (!existsSync(labelFile)) throw new Error(`${name} has no label ${m[1]}.expected.json`);
    cases.push({ name, file: join(dir, name), format: m[2] === "json" ? "json" : "yaml", label: JSON.parse(readFileSync(labelFile, "utf8")) as Label });
  }
  const expected = CASE_COUNTS[dir];
  if (expected !== undefined && cases.length !== expected) throw new Error(`corpus folder ${dir} holds ${cases.length} cases, expected ${expected}`);
  if (cases.length === 0) throw new Error(`corpus folder ${dir} holds no cases`);
  return cases;
}

export interface GeneratedErrors { kind: string; stepId: string; path: string; expectedCode: string; detail: string }

/** Runs bench/generate.mjs with these options; returns the document's text and the errors it injected. */
export function generateWorkflow(args: { steps: number; seed: number | string; format?: "json" | "yaml"; errors?: number; idStyle?: "kebab" | "snake" }): { text: string; injected: GeneratedErrors[] } {
  const dir = mkdtempSync(join(tmpdir(), "lwir-gen-"));
  try {
    const out = join(dir, `doc.lwir.${args.format ?? "json"}`);
    execFileSync(process.execPath, [GENERATOR, "--steps", String(args.steps), "--seed", String(args.seed), "--format", args.format ?? "json",
      "--errors", String(args.errors ?? 0), "--id-style", args.idStyle ?? "kebab", "--out", out], { stdio: "pipe", maxBuffer: 1 << 28 });
    const injected = (args.errors ?? 0) > 0 ? (JSON.parse(readFileSync(`${out}.errors.json`, "utf8")) as GeneratedErrors[]) : [];
    return { text: readFileSync(out, "utf8"), injected };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
