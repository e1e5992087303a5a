// Command-line parsing for `lwir`: no dependency, strict (an unknown option is a usage error, so a
// typo never silently changes what CI checks).
import { RULES } from "../lwir/codes";
import { CONFIGURABLE_RULES, parseRuleOption, type RuleLevel } from "../service/rules";
import type { FixKind } from "../service/codeActions";

export type OutputFormat = "text" | "json" | "sarif" | "github";

export interface ValidateOptions {
  format: OutputFormat;
  exitZero: boolean;
  /** Files and folders; "-" is standard input. */
  paths: string[];
  /** Report errors only: notices below the error level are left out of every format. */
  quiet: boolean;
  /** Levels of our own rules given with --rule (the last one given for a code wins). */
  rules: Record<string, RuleLevel>;
  /** Exit 1 when more than this many warnings are reported; undefined: no limit. */
  maxWarnings?: number;
  /** false: a folder with no LWIR file is only pointed out on stderr (--no-error-on-unmatched-pattern). */
  errorOnUnmatched: boolean;
  /** The name standard input is shown under, whose extension also gives its format. */
  stdinFilename?: string;
  /** --fix: write the fixes; --fix-dry-run: print them as a unified diff. Absent: check only. */
  fix?: "write" | "dry-run";
  /** --fix-type: the kinds of fixes to apply (absent: problem only). */
  fixTypes?: FixKind[];
}

export type GraphFormat = "mermaid" | "dot" | "svg" | "json";
export const GRAPH_FORMATS: readonly GraphFormat[] = ["mermaid", "dot", "svg", "json"];

export interface GraphOptions {
  file: string;
  /** undefined: from the extension of --output, else mermaid. */
  format?: GraphFormat;
  /** -o / --output: write there instead of standard output. */
  output?: string;
}

export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "schema" }
  | ({ kind: "validate" } & ValidateOptions)
  | ({ kind: "graph" } & GraphOptions)
  | { kind: "usage-error"; message: string };

export const USAGE = `Usage: lwir validate [--format text|json|sarif|github] [--exit-zero] [--quiet] [--rule CODE=LEVEL]... PATH...
       lwir validate --fix|--fix-dry-run [--fix-type problem|lint|all] [options] PATH...
       lwir graph FILE [--format mermaid|dot|svg|json] [-o OUTPUT]
       lwir schema      (prints the JSON Schema of LWIR, for editors without the LWIR server)

Checks LWIR workflows (little-workflow) with the same rules as the runtime's validator.
A PATH is a file (checked whatever its name), a folder (searched recursively for
*.lwir.json, *.lwir.yaml and *.lwir.yml, skipping node_modules and .git), or - for one
document on standard input. A folder that holds no LWIR file is an error.

Options:
  --format FORMAT       text (default), json, sarif (SARIF 2.1.0, e.g. for GitHub code scanning)
                        or github (workflow commands: annotations in GitHub Actions)
  --exit-zero           exit 0 even when files have problems (2 is still returned when the tool fails)
  --quiet               report errors only: leave out warnings, infos and hints
  --rule CODE=LEVEL     set the level of one of LWIR Tools' own rules (repeatable):
                        LEVEL is off, hint, info, warning or error; CODE is one of
                        ${CONFIGURABLE_RULES.map((r) => r.code).join(",\n                        ")}.
                        The runtime's findings and syntax errors are always errors.
  --max-warnings N      exit 1 when more than N warnings are reported
  --stdin-filename NAME the name to show for -, and its format by extension (.lwir.json: JSON;
                        .lwir.yaml, .yml: YAML); without it, text that starts with { or [
                        (after white space) is JSON, anything else YAML
  --no-error-on-unmatched-pattern
                        a folder with no LWIR file is only pointed out, not an error
  --fix                 apply the fixes that need no choice (the editor's quick fixes: missing
                        needs entries, quotes around {{ }} in YAML, .output -> .lastOutput, a
                        misspelt name with only one close match), then report what remains;
                        files are rewritten in place, formatting and comments kept
  --fix-dry-run         the same, but print the changes as a unified diff and write nothing
  --fix-type TYPE       only these fixes (repeatable, or comma-separated): problem (the runtime's
                        findings, the default), lint (LWIR Tools' own rules) or all
  -h, --help            print this help
  --version             print the version

Exit status: 0 no problems; 1 some file has findings or does not parse, an own rule set
to error reports something, or --max-warnings is exceeded; 2 wrong usage, a path could
not be read, or a folder holds no LWIR file. Warnings, infos and hints never change it.
With --fix or --fix-dry-run it describes what remains after the fixes; a file the fixes could
not be written to is exit 2 (the file is left as it was).

lwir graph draws one workflow: its steps, needs, decision routes (loops dashed), parallel bodies
and the steps with findings. --format mermaid (the default; renders in GitHub Markdown), dot
(Graphviz), svg (a standalone picture, laid out as in the editor's graph view) or json (the graph
model, a documented contract). -o OUTPUT writes to a file; without --format its extension chooses
(.svg, .dot or .gv, .json, else Mermaid). A document with findings is still drawn (exit 1); one that
does not parse gets its parse errors as lwir validate prints them (exit 1).
`;

const FORMATS: readonly OutputFormat[] = ["text", "json", "sarif", "github"];
const FIX_TYPES: readonly FixKind[] = ["problem", "lint"];
const FINDING_CODES = new Set(RULES.map(([code]) => code));

export function parseArgs(argv: readonly string[]): Command {
  if (argv.length === 0) return { kind: "usage-error", message: "missing command" };
  // Help and version win wherever they appear (before `--`), like most CLIs.
  const dashDash = argv.indexOf("--");
  const options = dashDash < 0 ? argv : argv.slice(0, dashDash);
  if (options.includes("--help") || options.includes("-h")) return { kind: "help" };
  if (options.includes("--version")) return { kind: "version" };

  const [command, ...rest] = argv;
  if (command === "schema") return rest.length === 0 ? { kind: "schema" } : { kind: "usage-error", message: "lwir schema takes no argument" };
  if (command === "graph") return parseGraphArgs(rest);
  if (command !== "validate") {
    return { kind: "usage-error", message: command.startsWith("-") ? `unknown option ${command}` : `unknown command ${command}` };
  }
  const out: ValidateOptions = { format: "text", exitZero: false, paths: [], quiet: false, rules: {}, errorOnUnmatched: true };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      out.paths.push(...rest.slice(i + 1));
      break;
    }
    // `--name VALUE` or `--name=VALUE`; undefined when the value is missing.
    const valueOf = (name: string): string | undefined => (arg === name ? rest[++i] : arg.slice(name.length + 1));
    const takes = (name: string): boolean => arg === name || arg.startsWith(name + "=");
    if (arg === "--exit-zero") {
      out.exitZero = true;
    } else if (arg === "--quiet") {
      out.quiet = true;
    } else if (arg === "--no-error-on-unmatched-pattern") {
      out.errorOnUnmatched = false;
    } else if (takes("--format")) {
      const value = valueOf("--format");
      if (value === undefined) return { kind: "usage-error", message: "--format needs a value: text, json or sarif" };
      if (!(FORMATS as readonly string[]).includes(value)) {
        return { kind: "usage-error", message: `unknown format ${value} (expected text, json, sarif or github)` };
      }
      out.format = value as OutputFormat;
    } else if (takes("--rule")) {
      const value = valueOf("--rule");
      if (value === undefined) return { kind: "usage-error", message: "--rule needs CODE=LEVEL, e.g. lwir.yaml_unquoted_template=off" };
      const rule = parseRuleOption(value, (code) => FINDING_CODES.has(code));
      if ("error" in rule) return { kind: "usage-error", message: rule.error };
      out.rules[rule.code] = rule.level;
    } else if (takes("--max-warnings")) {
      const value = valueOf("--max-warnings");
      if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        return { kind: "usage-error", message: `--max-warnings needs a whole number of warnings (0 or more)${value === undefined ? "" : `, not "${value}"`}` };
      }
      out.maxWarnings = Number(value);
    } else if (arg === "--fix" || arg === "--fix-dry-run") {
      const mode = arg === "--fix" ? "write" : "dry-run";
      if (out.fix !== undefined && out.fix !== mode) return { kind: "usage-error", message: "--fix and --fix-dry-run cannot be given together" };
      out.fix = mode;
    } else if (takes("--fix-type")) {
      const value = valueOf("--fix-type");
      if (value === undefined || value === "") return { kind: "usage-error", message: "--fix-type needs a value: problem, lint or all" };
      for (const type of value.split(",")) {
        if (type !== "all" && !(FIX_TYPES as readonly string[]).includes(type)) {
          return { kind: "usage-error", message: `unknown fix type "${type}" for --fix-type (expected problem, lint or all)` };
        }
        const added = type === "all" ? FIX_TYPES : [type as FixKind];
        out.fixTypes = FIX_TYPES.filter((t) => out.fixTypes?.includes(t) || added.includes(t));
      }
    } else if (takes("--stdin-filename")) {
      const value = valueOf("--stdin-filename");
      if (value === undefined || value === "") return { kind: "usage-error", message: "--stdin-filename needs a file name" };
      out.stdinFilename = value;
    } else if (arg.startsWith("-") && arg !== "-") {
      return { kind: "usage-error", message: `unknown option ${arg}` };
    } else {
      out.paths.push(arg);
    }
  }
  if (out.paths.length === 0) return { kind: "usage-error", message: "no PATH given" };
  const stdinCount = out.paths.filter((p) => p === "-").length;
  if (stdinCount > 1) return { kind: "usage-error", message: "- (standard input) can be given only once" };
  if (out.stdinFilename !== undefined && stdinCount === 0) {
    return { kind: "usage-error", message: "--stdin-filename names standard input: give - among the paths" };
  }
  if (out.fixTypes !== undefined && out.fix === undefined) return { kind: "usage-error", message: "--fix-type needs --fix or --fix-dry-run" };
  // Standard input has no file to write back to; --fix-dry-run shows its diff.
  if (out.fix === "write" && stdinCount > 0) return { kind: "usage-error", message: "--fix cannot write back to - (standard input): use --fix-dry-run to see the fixes as a diff" };
  if (out.fix === "dry-run" && (out.format === "sarif" || out.format === "github")) {
    return { kind: "usage-error", message: `--fix-dry-run prints a diff: use --format text or json, not ${out.format}` };
  }
  return { kind: "validate", ...out };
}

function parseGraphArgs(rest: readonly string[]): Command {
  const out: Partial<GraphOptions> = {};
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      files.push(...rest.slice(i + 1));
      break;
    }
    const valueOf = (name: string): string | undefined => (arg === name ? rest[++i] : arg.slice(name.length + 1));
    const takes = (name: string): boolean => arg === name || arg.startsWith(name + "=");
    if (takes("--format")) {
      const value = valueOf("--format");
      if (value === undefined || !(GRAPH_FORMATS as readonly string[]).includes(value)) {
        return { kind: "usage-error", message: `lwir graph --format needs ${GRAPH_FORMATS.join(", ")}${value === undefined ? "" : `, not ${value}`}` };
      }
      out.format = value as GraphFormat;
    } else if (arg === "-o" || takes("--output")) {
      const value = arg === "-o" ? rest[++i] : valueOf("--output");
      if (value === undefined || value === "") return { kind: "usage-error", message: "-o needs a file name" };
      out.output = value;
    } else if (arg.startsWith("-")) {
      return { kind: "usage-error", message: `unknown option ${arg}` };
    } else {
      files.push(arg);
    }
  }
  if (files.length !== 1) return { kind: "usage-error", message: files.length === 0 ? "lwir graph needs a FILE" : "lwir graph draws one FILE at a time" };
  return { kind: "graph", file: files[0], ...out };
}

/** The format of `lwir graph`: --format, else the output file's extension, else Mermaid. */
export function graphFormatOf(options: GraphOptions): GraphFormat {
  if (options.format) return options.format;
  const name = (options.output ?? "").toLowerCase();
  if (name.endsWith(".svg")) return "svg";
  if (name.endsWith(".dot") || name.endsWith(".gv")) return "dot";
  if (name.endsWith(".json")) return "json";
  return "mermaid";
}
