// Command-line parsing for `lwir`: no dependency, strict (an unknown option is a usage error, so a
// typo never silently changes what CI checks).

export type OutputFormat = "text" | "json" | "sarif" | "github";

export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "schema" }
  | { kind: "validate"; format: OutputFormat; exitZero: boolean; paths: string[] }
  | { kind: "usage-error"; message: string };

export const USAGE = `Usage: lwir validate [--format text|json|sarif|github] [--exit-zero] PATH...
       lwir schema      (prints the JSON Schema of LWIR, for editors without the LWIR server)

Checks LWIR workflows (little-workflow) with the same rules as the runtime's validator.
A PATH is a file (checked whatever its name) or a folder (searched recursively for
*.lwir.json, *.lwir.yaml and *.lwir.yml, skipping node_modules and .git).

Options:
  --format FORMAT  text (default), json, sarif (SARIF 2.1.0, e.g. for GitHub code scanning)
                   or github (workflow commands: annotations in GitHub Actions)
  --exit-zero      exit 0 even when files have problems (2 is still returned when the tool fails)
  -h, --help       print this help
  --version        print the version

Exit status: 0 no problems, 1 some file has findings or does not parse,
2 wrong usage or a path could not be read.
`;

const FORMATS: readonly OutputFormat[] = ["text", "json", "sarif", "github"];

export function parseArgs(argv: readonly string[]): Command {
  if (argv.length === 0) return { kind: "usage-error", message: "missing command" };
  // Help and version win wherever they appear (before `--`), like most CLIs.
  const dashDash = argv.indexOf("--");
  const options = dashDash < 0 ? argv : argv.slice(0, dashDash);
  if (options.includes("--help") || options.includes("-h")) return { kind: "help" };
  if (options.includes("--version")) return { kind: "version" };

  const [command, ...rest] = argv;
  if (command === "schema") return rest.length === 0 ? { kind: "schema" } : { kind: "usage-error", message: "lwir schema takes no argument" };
  if (command !== "validate") {
    return { kind: "usage-error", message: command.startsWith("-") ? `unknown option ${command}` : `unknown command ${command}` };
  }
  let format: OutputFormat = "text";
  let exitZero = false;
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      paths.push(...rest.slice(i + 1));
      break;
    }
    if (arg === "--exit-zero") {
      exitZero = true;
    } else if (arg === "--format" || arg.startsWith("--format=")) {
      const value = arg === "--format" ? rest[++i] : arg.slice("--format=".length);
      if (value === undefined) return { kind: "usage-error", message: "--format needs a value: text, json or sarif" };
      if (!(FORMATS as readonly string[]).includes(value)) {
        return { kind: "usage-error", message: `unknown format ${value} (expected text, json or sarif)` };
      }
      format = value as OutputFormat;
    } else if (arg.startsWith("-") && arg !== "-") {
      return { kind: "usage-error", message: `unknown option ${arg}` };
    } else {
      paths.push(arg);
    }
  }
  if (paths.length === 0) return { kind: "usage-error", message: "no PATH given" };
  return { kind: "validate", format, exitZero, paths };
}
