// `lwir validate`: checks LWIR files with the same analysis as the language server and prints text,
// JSON or SARIF. Exit 0 clean, 1 problems in files, 2 usage errors or paths the tool could not check.
import { version, repository } from "../../package.json";
import { parseArgs, USAGE, type OutputFormat } from "./cli/args";
import { checkFile, isFailure } from "./cli/check";
import { collectFiles } from "./cli/files";
import { formatGithub } from "./cli/format-github";
import { formatJson } from "./cli/format-json";
import { formatSarif } from "./cli/format-sarif";
import { formatText, shouldColor } from "./cli/format-text";
import { problemCount, type Failure, type FileReport } from "./cli/report";
// Bundled into dist/cli.js, so `lwir schema` needs no file beside the bundle.
import lwirSchema from "../../schemas/lwir.schema.json";

const INFORMATION_URI = repository.url.replace(/\.git$/, "");

function run(argv: readonly string[]): number {
  const command = parseArgs(argv);
  switch (command.kind) {
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case "version":
      process.stdout.write(`${version}\n`);
      return 0;
    case "schema":
      process.stdout.write(JSON.stringify(lwirSchema, null, 2) + "\n");
      return 0;
    case "usage-error":
      process.stderr.write(`lwir: ${command.message}\n\n${USAGE}`);
      return 2;
  }
  const { files, failures, emptyFolders } = collectFiles(command.paths);
  const reports: FileReport[] = [];
  const allFailures: Failure[] = [...failures];
  for (const file of files) {
    const result = checkFile(file);
    if (isFailure(result)) allFailures.push(result);
    else reports.push(result);
  }
  const messages = allFailures.map((f) =>
    f.kind === "internal" ? `lwir: internal error while checking ${f.path}: ${f.reason}\n` : `lwir: cannot read ${f.path}: ${f.reason}\n`);
  for (const folder of emptyFolders) messages.push(`lwir: warning: no *.lwir.json, *.lwir.yaml or *.lwir.yml file under ${folder}\n`);
  if (messages.length > 0) process.stderr.write(messages.join(""));
  // One write of the whole output (a reader that goes away early is handled below).
  process.stdout.write(render(command.format, reports, allFailures));
  if (allFailures.length > 0) return 2;
  if (command.exitZero) return 0;
  return reports.some((r) => problemCount(r) > 0 || !r.valid) ? 1 : 0;
}

function render(format: OutputFormat, reports: readonly FileReport[], failures: readonly Failure[]): string {
  switch (format) {
    case "json":
      return formatJson(reports);
    case "github":
      return formatGithub(reports, { baseDir: process.cwd(), failures });
    case "sarif":
      return formatSarif(reports, { version, informationUri: INFORMATION_URI, baseDir: process.cwd(), failures });
    case "text":
      return formatText(reports, { color: shouldColor(process.env, process.stdout.isTTY === true), failures });
  }
}

// A reader that stops early (`| head`) is not an error: keep the exit status, print nothing.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`lwir: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

try {
  process.exitCode = run(process.argv.slice(2));
} catch (error) {
  // Never a stack trace: the message is enough to report the bug.
  process.stderr.write(`lwir: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
