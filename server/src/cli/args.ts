// Command-line parsing for `lwir` on node:util's parseArgs; strict (an unknown option is a usage error, so
// a typo never silently changes what CI checks).
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";
import { RULES } from "../lwir/codes";
import { CONFIGURABLE_RULES, parseRuleOption, type RuleLevel } from "../service/rules";
import type { FixKind } from "../service/codeActions";
import type { EvalOptions } from "./eval";

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
  /** --ignore-pattern: globs (relative to the working folder) of files and folders not to check. */
  ignorePatterns?: string[];
  /** -o / --output-file: the report goes to this file instead of standard output. */
  outputFile?: string;
  /** --color / --no-color; absent: colour on a terminal only, NO_COLOR and FORCE_COLOR honoured. */
  color?: boolean;
}

export type GraphFormat = "mermaid" | "dot" | "svg" | "json";
export const GRAPH_FORMATS: readonly GraphFormat[] = ["mermaid", "dot", "svg", "json"];

export interface GraphOptions {
  file: string;
  /** undefined: from the extension of --output, else mermaid. */
  format?: GraphFormat;
  /** -o / --output / --output-file: write there instead of standard output. */
  output?: string;
  /** FILE is "-": the name standard input is shown under, whose extension gives its format. */
  stdinFilename?: string;
  /** --color / --no-color (the messages on standard error). */
  color?: boolean;
}

/** `lwir run --dry FILE`: one dry run, its trace printed. */
export interface DryRunOptions {
  file: string;
  format: "text" | "json";
  /** --input FILE.json: the workflow input (else the scenario's, else generated from input.schema). */
  input?: string;
  /** --scenario NAME: a scenario of the scenarios file beside FILE (its input and sample outputs). */
  scenario?: string;
  /** --explore: every combination of decision outcomes, bounded. */
  explore: boolean;
}

/** `lwir test [PATH...]`: every scenario of every scenarios file found. */
export interface TestOptions {
  paths: string[];
  format: "text" | "json" | "junit";
  /** --scenario NAME: only the scenarios of that name. */
  scenario?: string;
}

export type Command =
  | { kind: "help" }
  | { kind: "short-usage" }
  | { kind: "version" }
  | { kind: "schema" }
  | { kind: "mcp" }
  | ({ kind: "validate" } & ValidateOptions)
  | ({ kind: "graph" } & GraphOptions)
  | ({ kind: "run" } & DryRunOptions)
  | ({ kind: "test" } & TestOptions)
  | ({ kind: "eval" } & EvalOptions)
  | { kind: "usage-error"; message: string };

/** `lwir` alone, and after a usage error: the commands, and where the rest is. */
export const SHORT_USAGE = `Usage: lwir validate [options] PATH...    check workflows (files, folders, 'glob/**' patterns, - for stdin)
       lwir graph [options] FILE|-         draw one workflow (Mermaid, DOT, SVG or JSON)
       lwir schema                         print the JSON Schema of LWIR
       lwir run --dry [options] FILE       what the runtime would do, step by step, without a model
       lwir test [options] [PATH...]       run the scenarios files' dry runs and check their expectations
       lwir eval TEMPLATE [--context FILE] evaluate a template as the runtime does
       lwir mcp                            serve the checks to coding agents (Model Context Protocol, stdio)
Run lwir --help for every option.
`;

export const USAGE = `Usage: lwir validate [--format text|json|sarif|github] [--exit-zero] [--quiet] [--rule CODE=LEVEL]...
                     [--max-warnings N] [--ignore-pattern GLOB]... [-o FILE] [--color|--no-color]
                     [--stdin-filename NAME] [--no-error-on-unmatched-pattern] PATH...
       lwir validate --fix|--fix-dry-run [--fix-type problem|lint|all] [options] PATH...
       lwir graph [--format mermaid|dot|svg|json] [-o OUTPUT] [--stdin-filename NAME] FILE|-
       lwir schema      (prints the JSON Schema of LWIR, for editors without the LWIR server)
       lwir run --dry [--input FILE.json] [--scenario NAME] [--explore] [--format text|json] FILE
       lwir test [--scenario NAME] [--format text|json|junit] [PATH...]
       lwir eval TEMPLATE [--context FILE]
       lwir eval --jsonl  (reads {"template": ..., "context": ...} lines on standard input)
       lwir mcp         (a Model Context Protocol server on standard input and output, for coding
                        agents: docs/agents.md)

Checks LWIR workflows (little-workflow) with the same rules as the runtime's validator.
A PATH is a file (checked whatever its name), a folder (searched recursively for
*.lwir.json, *.lwir.yaml and *.lwir.yml, skipping node_modules and .git), a quoted glob
pattern ('flows/**/*.lwir.yaml': the files it matches, as the shell would expand it), or -
for one document on standard input. A folder or pattern with no LWIR file is an error.
Inside folders, a symbolic link loop or a dangling link is skipped with a notice.

The nearest .lwir.yaml or .lwir.json above each file sets rule levels, ignored paths and
extra includes (docs/configuration.md); --rule overrides it.

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
                        a folder or pattern with no LWIR file is only pointed out, not an error
  --ignore-pattern GLOB files and folders not to check (repeatable), relative to the working
                        folder, e.g. 'generated/**'
  -o, --output-file FILE
                        write the report to FILE instead of standard output
  --color, --no-color   colour the text report (default: on a terminal, unless NO_COLOR is set;
                        FORCE_COLOR=1 forces it)
  --fix                 apply the fixes that need no choice (the editor's quick fixes: missing
                        needs entries, quotes around {{ }} in YAML, .output -> .lastOutput, a
                        misspelt name with only one close match), then report what remains;
                        files are rewritten in place, formatting and comments kept
  --fix-dry-run         the same, but print the changes as a unified diff and write nothing
  --fix-type TYPE       only these fixes (repeatable, or comma-separated): problem (the runtime's
                        findings, the default), lint (LWIR Tools' own rules) or all
  --dry                 lwir run: a dry run (no model, tool or code is run; required)
  --input FILE.json     lwir run: the workflow input (default: the scenario's, else generated
                        from input.schema)
  --scenario NAME       lwir run: the input and sample outputs of this scenario of the scenarios
                        file beside FILE (NAME.lwir.test.yaml); lwir test: only this scenario
  --explore             lwir run: every combination of decision outcomes (at most 1,000 paths):
                        the paths that fail, and the steps no path reaches
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
(.svg, .dot or .gv, .json, else Mermaid). FILE - reads standard input (--stdin-filename NAME gives its
name and format). A document with findings is still drawn (exit 1); one that does not parse gets its
parse errors as lwir validate prints them (exit 1).

lwir run --dry shows what the runtime would do with FILE: each step's resolved input, the exact
system prompt and user message of each ai.generate step, the case each decision chose, loops and
parallel branches, each output checked against its declared output, and where the run would fail
(exit 1). Outputs come from the scenario, else are generated (marked so). lwir test runs every
scenario of the scenarios files (*.lwir.test.yaml, .yml or .json beside the workflow) in the PATHs
(default: the working folder; a workflow file stands for its scenarios file) and checks their
expect (steps, chosen, output, error); --format junit writes JUnit XML for CI. Exit 1 when a
scenario fails, 2 when a path holds no scenarios file. docs/dry-run.md describes both.

lwir eval evaluates one template as the runtime would, with no model, tool or code run:
  --context FILE        the values it reads, JSON (or YAML by extension; - for standard input):
                        {"input": ..., "steps": {"ID": {"output": ..., "visits": [...]}},
                         "step": ..., "workflow": ..., "item": ...}; each key optional, and
                        item present means inside a parallel branch
  --jsonl               read lines {"template": "...", "context": {...}} on standard input and
                        write one line per line, in order: {"value": ...}, {"undefined": true}
                        or {"error": "...", "runtime": "..."}; exit 0 once the input is read
It prints the value as JSON (undefined as the word undefined) and exits 0, or prints the error
the runtime would throw and exits 1; exit 2 for usage errors and a context that cannot be read.
`;

const FORMATS: readonly OutputFormat[] = ["text", "json", "sarif", "github"];
const FIX_TYPES: readonly FixKind[] = ["problem", "lint"];
const FINDING_CODES = new Set(RULES.map(([code]) => code));

/**
 * Every option of every command, for node:util's parseArgs. It runs non-strict and hands back tokens, so
 * the messages of a mistake are ours (which command, which value was expected) and an unknown option is
 * still a usage error, found here.
 */
const OPTIONS = {
  format: { type: "string" },
  "exit-zero": { type: "boolean" },
  quiet: { type: "boolean" },
  rule: { type: "string", multiple: true },
  "max-warnings": { type: "string" },
  "stdin-filename": { type: "string" },
  "no-error-on-unmatched-pattern": { type: "boolean" },
  "ignore-pattern": { type: "string", multiple: true },
  fix: { type: "boolean" },
  "fix-dry-run": { type: "boolean" },
  "fix-type": { type: "string", multiple: true },
  "output-file": { type: "string", short: "o" },
  output: { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  dry: { type: "boolean" },
  input: { type: "string" },
  scenario: { type: "string" },
  explore: { type: "boolean" },
  context: { type: "string" },
  jsonl: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

type OptionName = keyof typeof OPTIONS;
const VALIDATE_OPTIONS = new Set<OptionName>([
  "format", "exit-zero", "quiet", "rule", "max-warnings", "stdin-filename", "no-error-on-unmatched-pattern",
  "ignore-pattern", "fix", "fix-dry-run", "fix-type", "output-file", "color", "no-color",
]);
const GRAPH_OPTIONS = new Set<OptionName>(["format", "output-file", "output", "stdin-filename", "color", "no-color"]);
const RUN_OPTIONS = new Set<OptionName>(["dry", "input", "scenario", "explore", "format"]);
const TEST_OPTIONS = new Set<OptionName>(["scenario", "format"]);
const EVAL_OPTIONS = new Set<OptionName>(["context", "jsonl"]);

interface Token {
  name: OptionName;
  /** As written: `--format`, `-o`. */
  raw: string;
  value: string | undefined;
}

/** The options and the positionals (everything after `--` is a positional), or the first unknown option. */
function tokenize(argv: readonly string[], allowed: ReadonlySet<OptionName>): { options: Token[]; positionals: string[] } | { error: string } {
  const { tokens } = nodeParseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const options: Token[] = [];
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    else if (token.kind === "option") {
      const name = token.name as OptionName;
      if (!Object.prototype.hasOwnProperty.call(OPTIONS, name) || !allowed.has(name)) return { error: `unknown option ${token.rawName}` };
      if (OPTIONS[name].type === "boolean" && token.inlineValue) return { error: `${token.rawName} takes no value` };
      options.push({ name, raw: token.rawName, value: token.value });
    }
  }
  return { options, positionals };
}

/** --color / --no-color: the last one given wins; undefined leaves it to the terminal and NO_COLOR / FORCE_COLOR. */
function colorOf(options: readonly Token[]): boolean | undefined {
  let color: boolean | undefined;
  for (const o of options) if (o.name === "color" || o.name === "no-color") color = o.name === "color";
  return color;
}

export function parseArgs(argv: readonly string[]): Command {
  if (argv.length === 0) return { kind: "short-usage" };
  // Help and version win wherever they appear (before `--`), like most CLIs.
  const dashDash = argv.indexOf("--");
  const options = dashDash < 0 ? argv : argv.slice(0, dashDash);
  if (options.includes("--help") || options.includes("-h")) return { kind: "help" };
  if (options.includes("--version")) return { kind: "version" };

  const [command, ...rest] = argv;
  if (command === "schema") return rest.length === 0 ? { kind: "schema" } : { kind: "usage-error", message: "lwir schema takes no argument" };
  if (command === "graph") return parseGraphArgs(rest);
  if (command === "run") return parseRunArgs(rest);
  if (command === "test") return parseTestArgs(rest);
  if (command === "eval") return parseEvalArgs(rest);
  if (command === "mcp") return rest.length === 0 ? { kind: "mcp" } : { kind: "usage-error", message: "lwir mcp takes no argument" };
  if (command !== "validate") {
    return { kind: "usage-error", message: command.startsWith("-") ? `unknown option ${command}` : `unknown command ${command}` };
  }
  const parsed = tokenize(rest, VALIDATE_OPTIONS);
  if ("error" in parsed) return { kind: "usage-error", message: parsed.error };
  const out: ValidateOptions = { format: "text", exitZero: false, paths: parsed.positionals, quiet: false, rules: {}, errorOnUnmatched: true };
  for (const { name, raw, value } of parsed.options) {
    switch (name) {
      case "exit-zero":
        out.exitZero = true;
        break;
      case "quiet":
        out.quiet = true;
        break;
      case "no-error-on-unmatched-pattern":
        out.errorOnUnmatched = false;
        break;
      case "format":
        if (value === undefined) return { kind: "usage-error", message: "--format needs a value: text, json, sarif or github" };
        if (!(FORMATS as readonly string[]).includes(value)) {
          return { kind: "usage-error", message: `unknown format ${value} (expected text, json, sarif or github)` };
        }
        out.format = value as OutputFormat;
        break;
      case "rule": {
        if (value === undefined) return { kind: "usage-error", message: "--rule needs CODE=LEVEL, e.g. lwir.yaml_unquoted_template=off" };
        const rule = parseRuleOption(value, (code) => FINDING_CODES.has(code));
        if ("error" in rule) return { kind: "usage-error", message: rule.error };
        out.rules[rule.code] = rule.level;
        break;
      }
      case "max-warnings":
        if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
          return { kind: "usage-error", message: `--max-warnings needs a whole number of warnings (0 or more)${value === undefined ? "" : `, not "${value}"`}` };
        }
        out.maxWarnings = Number(value);
        break;
      case "fix":
      case "fix-dry-run": {
        const mode = name === "fix" ? "write" : "dry-run";
        if (out.fix !== undefined && out.fix !== mode) return { kind: "usage-error", message: "--fix and --fix-dry-run cannot be given together" };
        out.fix = mode;
        break;
      }
      case "fix-type":
        if (value === undefined || value === "") return { kind: "usage-error", message: "--fix-type needs a value: problem, lint or all" };
        for (const type of value.split(",")) {
          if (type !== "all" && !(FIX_TYPES as readonly string[]).includes(type)) {
            return { kind: "usage-error", message: `unknown fix type "${type}" for --fix-type (expected problem, lint or all)` };
          }
          const added = type === "all" ? FIX_TYPES : [type as FixKind];
          out.fixTypes = FIX_TYPES.filter((t) => out.fixTypes?.includes(t) || added.includes(t));
        }
        break;
      case "stdin-filename":
        if (value === undefined || value === "") return { kind: "usage-error", message: "--stdin-filename needs a file name" };
        out.stdinFilename = value;
        break;
      case "ignore-pattern":
        if (value === undefined || value.trim() === "") return { kind: "usage-error", message: "--ignore-pattern needs a glob, e.g. 'generated/**'" };
        (out.ignorePatterns ??= []).push(value);
        break;
      case "output-file":
        if (value === undefined || value === "") return { kind: "usage-error", message: `${raw} needs a file name` };
        out.outputFile = value;
        break;
      default:
        break; // color: below
    }
  }
  const color = colorOf(parsed.options);
  if (color !== undefined) out.color = color;
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
  const parsed = tokenize(rest, GRAPH_OPTIONS);
  if ("error" in parsed) return { kind: "usage-error", message: parsed.error };
  const out: Partial<GraphOptions> = {};
  for (const { name, raw, value } of parsed.options) {
    if (name === "format") {
      if (value === undefined || !(GRAPH_FORMATS as readonly string[]).includes(value)) {
        return { kind: "usage-error", message: `lwir graph --format needs ${GRAPH_FORMATS.join(", ")}${value === undefined ? "" : `, not ${value}`}` };
      }
      out.format = value as GraphFormat;
    } else if (name === "output" || name === "output-file") {
      if (value === undefined || value === "") return { kind: "usage-error", message: `${raw} needs a file name` };
      out.output = value;
    } else if (name === "stdin-filename") {
      if (value === undefined || value === "") return { kind: "usage-error", message: "--stdin-filename needs a file name" };
      out.stdinFilename = value;
    }
  }
  const color = colorOf(parsed.options);
  if (color !== undefined) out.color = color;
  const files = parsed.positionals;
  if (files.length !== 1) return { kind: "usage-error", message: files.length === 0 ? "lwir graph needs a FILE (or - for standard input)" : "lwir graph draws one FILE at a time" };
  if (out.stdinFilename !== undefined && files[0] !== "-") return { kind: "usage-error", message: "--stdin-filename names standard input: give - as the FILE" };
  return { kind: "graph", file: files[0], ...out };
}

function parseEvalArgs(rest: readonly string[]): Command {
  const parsed = tokenize(rest, EVAL_OPTIONS);
  if ("error" in parsed) return { kind: "usage-error", message: parsed.error };
  const out: EvalOptions = { jsonl: false };
  for (const { name, value } of parsed.options) {
    if (name === "jsonl") out.jsonl = true;
    else if (name === "context") {
      if (value === undefined || value === "") return { kind: "usage-error", message: "--context needs a file name (JSON, or YAML by extension; - for standard input)" };
      out.context = value;
    }
  }
  const templates = parsed.positionals;
  if (out.jsonl) {
    if (templates.length > 0 || out.context !== undefined) return { kind: "usage-error", message: "lwir eval --jsonl reads its templates and contexts from standard input: give no TEMPLATE and no --context" };
    return { kind: "eval", ...out };
  }
  if (templates.length !== 1) return { kind: "usage-error", message: templates.length === 0 ? "lwir eval needs a TEMPLATE (quote it: lwir eval '{{ input.name }}' --context context.json)" : "lwir eval takes one TEMPLATE (quote it so the shell passes it as one argument)" };
  return { kind: "eval", ...out, template: templates[0] };
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

function parseRunArgs(rest: readonly string[]): Command {
  const parsed = tokenize(rest, RUN_OPTIONS);
  if ("error" in parsed) return { kind: "usage-error", message: parsed.error };
  const out: DryRunOptions = { file: "", format: "text", explore: false };
  let dry = false;
  for (const { name, raw, value } of parsed.options) {
    if (name === "dry") dry = true;
    else if (name === "explore") out.explore = true;
    else if (name === "format") {
      if (value !== "text" && value !== "json") return { kind: "usage-error", message: `lwir run --format needs text or json${value === undefined ? "" : `, not ${value}`}` };
      out.format = value;
    } else if (name === "input" || name === "scenario") {
      if (value === undefined || value === "") return { kind: "usage-error", message: `${raw} needs ${name === "input" ? "a file name" : "a scenario name"}` };
      out[name] = value;
    }
  }
  // Only dry runs exist: --dry says so, so that a real `lwir run` later cannot be mistaken for this.
  if (!dry) return { kind: "usage-error", message: "lwir run needs --dry (LWIR Tools never runs a workflow for real)" };
  if (parsed.positionals.length !== 1) return { kind: "usage-error", message: parsed.positionals.length === 0 ? "lwir run --dry needs a FILE" : "lwir run --dry runs one FILE at a time" };
  return { kind: "run", ...out, file: parsed.positionals[0] };
}

function parseTestArgs(rest: readonly string[]): Command {
  const parsed = tokenize(rest, TEST_OPTIONS);
  if ("error" in parsed) return { kind: "usage-error", message: parsed.error };
  const out: TestOptions = { paths: parsed.positionals, format: "text" };
  for (const { name, raw, value } of parsed.options) {
    if (name === "format") {
      if (value !== "text" && value !== "json" && value !== "junit") return { kind: "usage-error", message: `lwir test --format needs text, json or junit${value === undefined ? "" : `, not ${value}`}` };
      out.format = value;
    } else if (name === "scenario") {
      if (value === undefined || value === "") return { kind: "usage-error", message: `${raw} needs a scenario name` };
      out.scenario = value;
    }
  }
  return { kind: "test", ...out };
}
