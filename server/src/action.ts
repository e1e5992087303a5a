// The GitHub Action's entry (action.yml, `runs.using: node20`, bundled to bundle/action.js): `lwir validate`
// on the `paths` input, run as the committed CLI bundle beside this file, so a run installs and builds
// nothing. Two runs of the CLI: SARIF into the report file (it never decides the status), then the report
// people read (annotations or text) on the step's log. The outputs go to the file GITHUB_OUTPUT names.
// Inputs arrive as INPUT_<NAME> variables (the runner upper-cases the name and keeps its hyphens); a path
// is only ever an argument, never part of a command line a shell reads.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

type Env = Record<string, string | undefined>;

function input(env: Env, name: string, fallback: string): string {
  const value = env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`];
  return value === undefined ? fallback : value.trim();
}

/** One path per line; a single line is split on blanks (the `paths` input's description). */
export function splitPaths(text: string): string[] {
  const lines = /\r?\n/.test(text.trim()) ? text.split(/\r?\n/) : text.split(/\s+/);
  return lines.map((l) => l.trim()).filter((l) => l !== "");
}

/** Errors and warnings in a SARIF log (results of level error / warning); undefined when it cannot be read. */
export function countResults(sarif: string): { errors: number; warnings: number } | undefined {
  try {
    const log = JSON.parse(sarif) as { runs: { results: { level?: string }[] }[] };
    const results = log.runs.flatMap((r) => r.results);
    // SARIF's default level is "warning"; ours always sets one.
    return { errors: results.filter((r) => r.level === "error").length, warnings: results.filter((r) => (r.level ?? "warning") === "warning").length };
  } catch {
    return undefined;
  }
}

/** `name<<DELIMITER` … form: a value may hold any character, a newline included. */
function writeOutputs(file: string | undefined, outputs: Record<string, string>): void {
  const text = Object.entries(outputs).map(([name, value]) => {
    const delimiter = `lwir_${randomUUID()}`;
    return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }).join("");
  if (file) appendFileSync(file, text);
  else process.stdout.write(Object.entries(outputs).map(([k, v]) => `${k}: ${v}\n`).join(""));
}

export function runAction(env: Env = process.env, cli = join(__dirname, "lwir.js")): number {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const paths = splitPaths(input(env, "paths", "."));
  if (paths.length === 0) {
    process.stdout.write("::error title=lwir::the paths input names no file or folder\n");
    return 2;
  }
  let sarif = input(env, "sarif-file", "");
  if (sarif === "") sarif = join(env.RUNNER_TEMP || workspace, "lwir-results.sarif");
  if (!isAbsolute(sarif)) sarif = join(workspace, sarif);
  mkdirSync(dirname(sarif), { recursive: true });
  // The SARIF run's messages are left out: the second run prints the same ones on the log.
  const lwir = (format: string, stdout: number | "inherit") =>
    spawnSync(process.execPath, [cli, "validate", "--format", format, ...(format === "sarif" ? ["--exit-zero"] : []), "--", ...paths],
      { cwd: workspace, env: { ...env, NO_COLOR: "1" }, stdio: ["ignore", stdout, stdout === "inherit" ? "inherit" : "ignore"] });
  const fd = openSync(sarif, "w");
  try {
    lwir("sarif", fd);
  } finally {
    closeSync(fd);
  }
  const shown = lwir(input(env, "annotations", "true") === "false" ? "text" : "github", "inherit");
  const status = shown.status ?? 2;
  let report = "";
  try {
    report = readFileSync(sarif, "utf8");
  } catch {
    // counted as none below
  }
  const counts = countResults(report) ?? { errors: 0, warnings: 0 };
  writeOutputs(env.GITHUB_OUTPUT, {
    "sarif-file": sarif, problems: String(counts.errors), warnings: String(counts.warnings), "exit-code": String(status),
  });
  if (status === 1 && input(env, "fail-on-problems", "true") === "false") return 0;
  return status;
}

if (require.main === module) process.exitCode = runAction();
