// `lwir validate`: checks LWIR files with the same analysis as the language server and prints text,
// JSON or SARIF. Exit 0 clean, 1 problems in files, 2 usage errors or paths the tool could not check.
import { version } from "../../package.json";
import { parseArgs, SHORT_USAGE, USAGE, type OutputFormat } from "./cli/args";
import { ConfigLookup } from "./cli/config";
import { useNodeSha256 } from "./nodeSha256";
import { checkBytes, checkFile, isFailure } from "./cli/check";
import { runGraph } from "./cli/graph";
import { runDry, runTests } from "./cli/dryrun";
import { runEval } from "./cli/eval";
import { collectFiles } from "./cli/files";
import { fixBytes, fixFile, type FixOptions } from "./cli/fix";
import { formatGithub } from "./cli/format-github";
import { formatJson } from "./cli/format-json";
import { formatSarif } from "./cli/format-sarif";
import { formatText, shouldColor } from "./cli/format-text";
import { existsSync, writeFileSync } from "node:fs";
import { mergeRules } from "./service/config";
import { countNotices, failureLine, problemCount, type Failure, type FileReport } from "./cli/report";
// Bundled into dist/cli.js, so `lwir schema` needs no file beside the bundle.
import lwirSchema from "../../schemas/lwir.schema.json";

// The public home, from package.json's `repository` at build time (scripts/bundle.mjs); none today.
declare const __LWIR_HOME__: string | undefined;
const INFORMATION_URI = typeof __LWIR_HOME__ === "string" && __LWIR_HOME__ !== "" ? __LWIR_HOME__ : undefined;
/** The name standard input is shown under without --stdin-filename. */
const STDIN_NAME = "<stdin>";
const UNMATCHED = "no *.lwir.json, *.lwir.yaml or *.lwir.yml file in this folder";
const UNMATCHED_PATTERN = "no file matches this pattern";

async function run(argv: readonly string[]): Promise<number> {
  const command = parseArgs(argv);
  switch (command.kind) {
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case "short-usage":
      process.stderr.write(SHORT_USAGE);
      return 2;
    case "version":
      process.stdout.write(`${version}\n`);
      return 0;
    case "schema":
      process.stdout.write(JSON.stringify(lwirSchema, null, 2) + "\n");
      return 0;
    case "mcp": {
      // Loaded only here, and from a bundle of its own beside the CLI's (server/src/mcpMain.ts): the protocol's SDK
      // and its schemas cost every other command's start-up nothing.
      let mcp: typeof import("./mcpMain");
      try {
        mcp = require("./mcpMain") as typeof import("./mcpMain");
      } catch (error) {
        process.stderr.write(`lwir: cannot load lwir mcp (lwir-mcp.js, beside the CLI): ${error instanceof Error ? error.message.split("\n")[0] : String(error)}\n`);
        return 2;
      }
      return mcp.runMcpServer();
    }
    case "usage-error":
      process.stderr.write(`lwir: ${command.message}\n\n${SHORT_USAGE}`);
      return 2;
    case "graph": {
      const stdin = command.file === "-" ? await readStdin() : undefined;
      const result = runGraph(command, command.color ?? shouldColor(process.env, process.stderr.isTTY === true), stdin);
      if (result.stderr) process.stderr.write(result.stderr);
      if (result.stdout) process.stdout.write(result.stdout);
      return result.code;
    }
    case "run":
    case "test": {
      const result = command.kind === "run" ? runDry(command) : runTests(command);
      if (result.stderr) process.stderr.write(result.stderr);
      if (result.stdout) process.stdout.write(result.stdout);
      return result.code;
    }
    case "eval": {
      const raw = command.jsonl || command.context === "-" ? await readStdin() : undefined;
      const result = runEval(command, raw instanceof Uint8Array ? Buffer.from(raw).toString("utf8") : raw);
      if (result.stderr) process.stderr.write(result.stderr);
      if (result.stdout) process.stdout.write(result.stdout);
      return result.code;
    }
  }
  const configs = new ConfigLookup();
  const { files, failures, emptyFolders, stdinIndex, notices } = collectFiles(command.paths, { ignorePatterns: command.ignorePatterns, configs });
  // A configuration file that cannot be used stops the run: checking with other levels than the ones asked for would mislead.
  if (stdinIndex >= 0 && command.stdinFilename !== undefined) configs.forFile(command.stdinFilename);
  if (configs.errors.length > 0) {
    process.stderr.write(configs.errors.flatMap((e) => e.lines.map((line) => `lwir: ${line}\n`)).join("") + "lwir: fix the configuration file, then run again (docs/configuration.md)\n");
    return 2;
  }
  /** The levels for one file: its configuration file's, then --rule on top. */
  const rulesFor = (file: string) => mergeRules(configs.forFile(file)?.config.rules, command.rules);
  const warnings: string[] = notices.map((n) => `lwir: notice: ${n}\n`);
  // Like ESLint's unmatched pattern: a folder that holds nothing to check is usually a wrong path in CI.
  for (const folder of emptyFolders) {
    const reason = existsSync(folder) ? UNMATCHED : UNMATCHED_PATTERN;
    if (command.errorOnUnmatched) failures.push({ path: folder, reason, kind: "unmatched" });
    else warnings.push(`lwir: warning: ${folder}: ${reason}\n`);
  }
  const reports: FileReport[] = [];
  const allFailures: Failure[] = [...failures];
  const check = (result: FileReport | Failure): void => {
    if (isFailure(result)) allFailures.push(result);
    else reports.push(result);
  };
  // --fix / --fix-dry-run: each file fixed first; its report is what remains.
  const fixing = (file: string): FixOptions | undefined => command.fix === undefined ? undefined
    : { rules: rulesFor(file), write: command.fix === "write", ...(command.fixTypes ? { kinds: command.fixTypes } : {}) };
  const fix = (fixed: { report: FileReport | Failure; failure?: Failure }): void => {
    check(fixed.report);
    if (fixed.failure) allFailures.push(fixed.failure);
  };
  const named = new Set(command.paths);
  const stdin = stdinIndex >= 0 ? await readStdin() : undefined;
  const stdinName = command.stdinFilename ?? STDIN_NAME;
  for (let i = 0; i <= files.length; i++) {
    if (i === stdinIndex && stdin) {
      // Without a name the format is sniffed from the text: "<stdin>" has no extension to go by.
      // Standard input takes the configuration that applies where --stdin-filename says it is (else the working folder's).
      const fixStdin = fixing(command.stdinFilename ?? STDIN_NAME);
      if (!(stdin instanceof Uint8Array)) check({ path: stdinName, reason: stdin.reason, kind: "unreadable" });
      else if (fixStdin) fix(fixBytes(stdinName, stdin, fixStdin, command.stdinFilename ?? ""));
      else check(checkBytes(stdinName, stdin, { rules: rulesFor(command.stdinFilename ?? STDIN_NAME) }, command.stdinFilename ?? ""));
    }
    if (i < files.length) {
      // A file the user named is read whatever its bytes, as the runtime reads it; binary files found in folders are skipped.
      const binary = named.has(files[i]) ? "read" : "skip";
      const fixFiles = fixing(files[i]);
      if (fixFiles) fix(fixFile(files[i], { ...fixFiles, binary }));
      else check(checkFile(files[i], { rules: rulesFor(files[i]), binary }));
    }
  }
  const messages = allFailures.map((f) =>
    f.kind === "unmatched" ? `lwir: ${failureLine(f)} (--no-error-on-unmatched-pattern allows it)\n` : `lwir: ${failureLine(f)}\n`);
  messages.push(...warnings);
  if (messages.length > 0) process.stderr.write(messages.join(""));
  // --max-warnings counts what was found, shown or not (--quiet only changes what is printed).
  const warningCount = reports.reduce((n, r) => n + countNotices(r, "warning"), 0);
  const shown = command.quiet ? reports.map(errorsOnly) : reports;
  // -o: the report goes to the file, uncoloured; the terminal then gets only stderr.
  const toFile = command.outputFile !== undefined;
  const color = !toFile && (command.color ?? shouldColor(process.env, process.stdout.isTTY === true));
  let output: string;
  if (command.fix === "dry-run" && command.format === "text") {
    // The diff alone on standard output (`> fixes.patch` applies with patch or git apply); what would remain on stderr.
    output = shown.map((r) => r.diff ?? "").join("");
    process.stderr.write(render(command.format, shown.map(withoutDiff), allFailures, command.fix, command.color ?? shouldColor(process.env, process.stderr.isTTY === true)));
  } else {
    output = render(command.format, shown, allFailures, command.fix, color);
  }
  if (toFile) {
    try {
      writeFileSync(command.outputFile!, output);
    } catch (error) {
      process.stderr.write(`lwir: cannot write the report to ${command.outputFile}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  } else {
    // One write of the whole output (a reader that goes away early is handled below).
    process.stdout.write(output);
  }
  if (allFailures.length > 0) return 2;
  if (command.exitZero) return 0;
  if (reports.some((r) => problemCount(r) > 0 || !r.valid)) return 1;
  if (command.maxWarnings !== undefined && warningCount > command.maxWarnings) {
    process.stderr.write(`lwir: ${warningCount} ${warningCount === 1 ? "warning" : "warnings"}, more than --max-warnings ${command.maxWarnings} allows\n`);
    return 1;
  }
  return 0;
}

/** The bytes of standard input, or why they could not be read. */
async function readStdin(): Promise<Uint8Array | { reason: string }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  } catch (error) {
    return { reason: `standard input: ${error instanceof Error ? error.message : String(error)}` };
  }
  return Buffer.concat(chunks);
}

function withoutDiff(report: FileReport): FileReport {
  const { diff: _diff, ...rest } = report;
  return rest;
}

/** --quiet: what is left when only errors are reported. */
function errorsOnly(report: FileReport): FileReport {
  return report.notices?.length ? { ...report, notices: report.notices.filter((n) => n.severity === "error") } : report;
}

function render(format: OutputFormat, reports: readonly FileReport[], failures: readonly Failure[], fixMode: "write" | "dry-run" | undefined, color: boolean): string {
  switch (format) {
    case "json":
      return formatJson(reports, failures);
    case "github":
      return formatGithub(reports, { baseDir: process.cwd(), failures });
    case "sarif":
      return formatSarif(reports, { version, ...(INFORMATION_URI ? { informationUri: INFORMATION_URI } : {}), baseDir: process.cwd(), failures });
    case "text":
      return formatText(reports, { color, failures, ...(fixMode ? { fixMode } : {}) });
  }
}

// A reader that stops early (`| head`) is not an error: keep the exit status, print nothing.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`lwir: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

useNodeSha256();
run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Never a stack trace: the message is enough to report the bug.
    process.stderr.write(`lwir: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
