// SARIF 2.1.0 for code-scanning services (GitHub code scanning reads rules, levels, regions, and
// relative artifact URIs against %SRCROOT%). Pure: the base folder and version are parameters.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Sarif from "sarif";
import { sortFindings, compareRanges, compareStrings, failureLine, type Failure, type FileReport, type Range } from "./report";
import { OWN_RULES, PARSE_RULE, RULES } from "../lwir/codes";
import { CONFIGURABLE_RULES } from "../service/rules";
import { PUBLIC_RULE_DOCS_BASE, ruleDocsUrl } from "../service/ruleDocs";
import { rulePage } from "./rulePages";

export interface SarifOptions {
  /** The tool version (from package.json). */
  version: string;
  /** The project's public home, once package.json's `repository` names one. */
  informationUri?: string;
  /** Absolute folder that relative artifact URIs are relative to (the working folder). */
  baseDir: string;
  failures?: readonly Failure[];
}

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT = "%SRCROOT%";

/** `step.invalid_id` → `StepInvalidId`: SARIF suggests a readable name besides the opaque id. */
function ruleName(code: string): string {
  return code.split(/[._]/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/**
 * A rule page as SARIF help: the Markdown (links to other pages become their text, since no page is
 * reachable from a code-scanning alert) and a plain-text rendering of it.
 */
export function ruleHelp(page: string): Sarif.MultiformatMessageString {
  const markdown = page.replace(/(?<!!)\[([^\]]*)\]\((?![a-z]+:)[^)]*\)/gi, "$1").trim() + "\n";
  const text = markdown
    .replace(/^```.*$/gm, "")
    .replace(/^#+\s*/gm, "")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, "$1 ($2)")
    .replace(/\n{3,}/g, "\n\n")
    .trim() + "\n";
  return { text, markdown };
}

function rule(code: string, description: string, defaultLevel: Sarif.ReportingConfiguration.level = "error", tags = code === PARSE_RULE ? ["lwir", "syntax"] : ["lwir"]): Sarif.ReportingDescriptor {
  const helpUri = ruleDocsUrl(code, PUBLIC_RULE_DOCS_BASE);
  const page = rulePage(code);
  return {
    id: code,
    name: ruleName(code),
    shortDescription: { text: description },
    ...(page !== undefined ? { help: ruleHelp(page) } : {}),
    ...(helpUri !== undefined ? { helpUri } : {}),
    defaultConfiguration: { level: defaultLevel },
    properties: { tags },
  };
}

/** Relative (forward slashes, percent-encoded) when under baseDir, else an absolute file: URI. */
export function artifactLocation(file: string, baseDir: string): Sarif.ArtifactLocation {
  const absolute = resolve(baseDir, file);
  const rel = relative(baseDir, absolute);
  if (rel !== "" && rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel)) {
    return { uri: rel.split(sep).map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
  }
  return { uri: pathToFileURL(absolute).href };
}

function region(r: Range): Sarif.Region {
  // SARIF lines and columns are 1-based; endColumn is the column just after the region.
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** SARIF has three levels that show: error, warning, note (our info and hint are notes). */
function level(severity: string): Sarif.Result.level {
  if (severity === "warning" || severity === "note") return severity;
  return severity === "info" || severity === "hint" ? "note" : "error";
}

export function toSarif(files: readonly FileReport[], options: SarifOptions): Sarif.Log {
  // Every code gets a rule, so ruleIndex values are stable from one run to the next.
  const parse = OWN_RULES.find((r) => r.code === PARSE_RULE)!;
  const rules = [
    rule(PARSE_RULE, parse.description),
    ...RULES.map(([code, text]) => rule(code, text)),
    // LWIR Tools' own notices come last, so the runtime's rules keep their indexes.
    ...CONFIGURABLE_RULES.map((r) => rule(r.code, r.description, level(r.severity), ["lwir", "lwir-tools"])),
  ];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const ruleIndexOf = (code: string): number => {
    let i = index.get(code);
    if (i === undefined) {
      i = rules.push(rule(code, `LWIR finding ${code}.`)) - 1;
      index.set(code, i);
    }
    return i;
  };
  const results: Sarif.Result[] = [];
  for (const file of files) {
    const artifact = artifactLocation(file.file, options.baseDir);
    const result = (code: string, severity: string, text: string, range: Range, properties?: Sarif.PropertyBag): Sarif.Result => ({
      ruleId: code,
      ruleIndex: ruleIndexOf(code),
      level: level(severity),
      message: { text },
      locations: [{ physicalLocation: { artifactLocation: artifact, region: region(range) } }],
      ...(properties ? { properties } : {}),
    });
    for (const p of [...file.parseErrors].sort((a, b) => compareRanges(a.range, b.range))) {
      results.push(result(PARSE_RULE, "error", p.message, p.range));
    }
    for (const f of sortFindings(file.findings)) results.push(result(f.code, f.severity, f.message, f.range, { path: f.path }));
    const notices = [...(file.notices ?? [])].sort((a, b) => compareRanges(a.range, b.range) || compareStrings(a.code, b.code));
    for (const n of notices) results.push(result(n.code, n.severity, n.message, n.range, { path: n.path, severity: n.severity }));
  }
  const failures = options.failures ?? [];
  const invocation: Sarif.Invocation = { executionSuccessful: failures.length === 0 };
  if (failures.length > 0) {
    invocation.toolExecutionNotifications = failures.map((f) => ({
      level: "error",
      message: { text: failureLine(f) },
    }));
  }
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "lwir", ...(options.informationUri ? { informationUri: options.informationUri } : {}), version: options.version, semanticVersion: options.version, rules } },
        invocations: [invocation],
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(options.baseDir).href.replace(/\/?$/, "/") } },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
}

export function formatSarif(files: readonly FileReport[], options: SarifOptions): string {
  return JSON.stringify(toSarif(files, options), null, 2) + "\n";
}
