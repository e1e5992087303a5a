// Levels of our own rules: the notices LWIR Tools adds beside the runtime's findings (never findings).
// Only these can be configured; the runtime's finding codes and `parse` are always errors, because the
// runtime refuses such a document whatever an editor or CI says. Pure data and functions: the CLI, the
// server and the browser server share them.
import { OWN_RULES, type OwnRule } from "../lwir/codes";

export type RuleLevel = "off" | "hint" | "info" | "warning" | "error";

export const RULE_LEVELS: readonly RuleLevel[] = ["off", "hint", "info", "warning", "error"];

/** A notice's level once configured ("off" notices are dropped before anyone sees a severity). */
export type NoticeSeverity = Exclude<RuleLevel, "off">;

/** The rules users may set: our own notices (codes.ts OWN_RULES), never the tool's own failures. */
export const CONFIGURABLE_RULES: readonly OwnRule[] = OWN_RULES.filter((r) => r.configurable);

const BY_CODE = new Map(CONFIGURABLE_RULES.map((r) => [r.code, r]));

/** User-chosen levels by code (only codes of CONFIGURABLE_RULES). */
export type RuleLevels = Readonly<Record<string, RuleLevel>>;

export function isOwnRule(code: string): boolean {
  return BY_CODE.has(code);
}

export function isRuleLevel(value: unknown): value is RuleLevel {
  return typeof value === "string" && (RULE_LEVELS as readonly string[]).includes(value);
}

/** The level of a notice: the user's choice, else the rule's default; undefined for codes that are not ours. */
export function levelOf(code: string, levels: RuleLevels | undefined): RuleLevel | undefined {
  const rule = BY_CODE.get(code);
  if (!rule) return undefined;
  const chosen = levels && Object.prototype.hasOwnProperty.call(levels, code) ? levels[code] : undefined;
  return isRuleLevel(chosen) ? chosen : rule.severity;
}

/** An editor setting `{CODE: level}`: unknown codes and levels are dropped (a setting must never break the server). */
export function readRuleLevels(raw: unknown): Record<string, RuleLevel> {
  const out: Record<string, RuleLevel> = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  for (const [code, level] of Object.entries(raw as Record<string, unknown>)) {
    if (isOwnRule(code) && isRuleLevel(level)) out[code] = level;
  }
  return out;
}

/** One `--rule CODE=LEVEL` argument: the pair, or a message saying what is wrong with it. */
export function parseRuleOption(arg: string, isFindingCode: (code: string) => boolean): { code: string; level: RuleLevel } | { error: string } {
  const eq = arg.lastIndexOf("=");
  const ours = CONFIGURABLE_RULES.map((r) => r.code).join(", ");
  if (eq <= 0) return { error: `--rule needs CODE=LEVEL, e.g. lwir.yaml_unquoted_template=off (got "${arg}")` };
  const code = arg.slice(0, eq);
  const level = arg.slice(eq + 1);
  if (!isOwnRule(code)) {
    if (code === "parse" || isFindingCode(code)) {
      return { error: `${code} is a problem the runtime refuses and is always an error; --rule sets only LWIR Tools' own rules: ${ours}` };
    }
    return { error: `unknown rule ${code} for --rule (rules that can be set: ${ours})` };
  }
  if (!isRuleLevel(level)) return { error: `unknown level "${level}" for --rule ${code} (expected off, hint, info, warning or error)` };
  return { code, level };
}
