// The configuration file, `.lwir.yaml` or `.lwir.json`, read by the CLI and the editor alike
// (docs/configuration.md). The nearest one above a workflow applies to it:
//   rules:   { CODE: off|hint|info|warning|error }  levels of LWIR Tools' own rules (as lwir.lint.rules / --rule)
//   ignore:  [GLOB]  files and folders, relative to the file's folder, that are not checked
//   include: [GLOB]  more files, relative to the file's folder, to check besides *.lwir.{json,yaml,yml}
//                    (they must still be LWIR documents by their apiVersion)
// Pure: text in, a config or problems with their ranges out; finding and reading the file is the caller's.
import { RULES } from "../lwir/codes";
import { parseDocument, type Format, type Range } from "../document/document";
import { CONFIGURABLE_RULES, isOwnRule, isRuleLevel, type RuleLevel } from "./rules";

/** The names looked for in each folder, in this order (the first found wins). */
export const CONFIG_FILE_NAMES = [".lwir.yaml", ".lwir.json"] as const;
/** A watcher's glob for both names. */
export const CONFIG_FILE_GLOB = "**/.lwir.{yaml,json}";

export interface LwirConfig {
  rules: Readonly<Record<string, RuleLevel>>;
  ignore: readonly string[];
  include: readonly string[];
}

export interface ConfigProblem {
  message: string;
  range: Range;
}

export type ConfigResult = { ok: true; config: LwirConfig } | { ok: false; problems: ConfigProblem[] };

export const EMPTY_CONFIG: LwirConfig = Object.freeze({ rules: Object.freeze({}), ignore: Object.freeze([]), include: Object.freeze([]) });

/** Is this file name one of the configuration file's (so never a workflow to check)? */
export function isConfigFileName(name: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(name);
}

const KEYS = ["rules", "ignore", "include"];
const FINDING_CODES = new Set(RULES.map(([code]) => code));

/** Reads a configuration file's text. Never throws: every mistake is a problem at its place. */
export function parseConfig(text: string, format: Format): ConfigResult {
  const document = parseDocument(text, format);
  if (document.parseErrors.length > 0) {
    return { ok: false, problems: document.parseErrors.map((p) => ({ message: p.message, range: p.range })) };
  }
  const problems: ConfigProblem[] = [];
  // On the key for a name that is wrong, on the value for a value that is.
  const at = (segments: Array<string | number>, onKey = false) => {
    const location = onKey ? document.locate(segments) : undefined;
    return location?.keyStart !== undefined ? document.rangeAt(location.keyStart, location.keyEnd ?? location.keyStart) : document.findingRange(segments);
  };
  const value = document.value;
  // An empty file is a configuration that sets nothing.
  if (value === null || value === undefined) return { ok: true, config: EMPTY_CONFIG };
  if (!isRecord(value)) return { ok: false, problems: [{ message: "The configuration must be a mapping of rules, ignore and include.", range: at([]) }] };
  const rules: Record<string, RuleLevel> = {};
  const globs = { ignore: [] as string[], include: [] as string[] };
  const ours = CONFIGURABLE_RULES.map((r) => r.code).join(", ");
  for (const [key, member] of Object.entries(value)) {
    if (!KEYS.includes(key)) {
      problems.push({ message: `Unknown key "${key}": a configuration has rules, ignore and include.`, range: at([key], true) });
    } else if (key === "rules") {
      if (member === null) continue;
      if (!isRecord(member)) {
        problems.push({ message: "rules must be a mapping of rule codes to levels (off, hint, info, warning or error).", range: at([key]) });
        continue;
      }
      for (const [code, level] of Object.entries(member)) {
        if (!isOwnRule(code)) {
          problems.push({
            message: code === "parse" || FINDING_CODES.has(code)
              ? `${code} is a problem the runtime refuses and is always an error; only LWIR Tools' own rules have levels: ${ours}.`
              : `Unknown rule ${code} (rules that have levels: ${ours}).`,
            range: at([key, code], true),
          });
        } else if (!isRuleLevel(level)) {
          problems.push({ message: `Unknown level ${JSON.stringify(level)} for ${code}: off, hint, info, warning or error.`, range: at([key, code]) });
        } else {
          rules[code] = level;
        }
      }
    } else {
      const name = key as "ignore" | "include";
      if (member === null) continue;
      if (!Array.isArray(member)) {
        problems.push({ message: `${name} must be a list of glob patterns, e.g. ["generated/**"].`, range: at([key]) });
        continue;
      }
      member.forEach((glob, i) => {
        if (typeof glob !== "string" || glob.trim() === "") problems.push({ message: `${name} holds glob patterns (non-empty strings).`, range: at([key, i]) });
        else globs[name].push(glob);
      });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config: { rules, ignore: globs.ignore, include: globs.include } };
}

/**
 * The rule levels that apply, later layers winning code by code: in the editor its settings then the
 * configuration file (the settings apply where the file is silent); in the CLI the file then --rule.
 */
export function mergeRules(...layers: Array<Readonly<Record<string, RuleLevel>> | undefined>): Readonly<Record<string, RuleLevel>> {
  const given = layers.filter((l): l is Readonly<Record<string, RuleLevel>> => l !== undefined && Object.keys(l).length > 0);
  if (given.length <= 1) return given[0] ?? {};
  return Object.assign({}, ...given) as Record<string, RuleLevel>;
}

/** The folder part of a `/`-separated path or URI ("" for a bare name). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/", path.endsWith("/") ? path.length - 2 : path.length);
  return slash < 0 ? "" : path.slice(0, slash);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
