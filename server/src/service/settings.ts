// The `lwir.*` settings the server reads, with their defaults, and how raw client values become them.
// Clients send settings in several shapes (nested objects from VS Code's configuration, dotted keys
// from hand-written initializationOptions, a `{lwir: {...}}` wrapper from didChangeConfiguration), so
// one tolerant reader turns any of them into a complete, type-checked value.
import { readRuleLevels, type RuleLevel } from "./rules";

export interface LwirSettings {
  validation: {
    /** false: no diagnostics at all (and existing ones are cleared). */
    enable: boolean;
    /** Quiet period after the last edit before validating, in ms; 0 validates on the next tick. */
    delay: number;
    /** "workspace": every LWIR file of the workspace folders, open or not; "openFiles": open documents only. */
    scope: ValidationScope;
    /** At most this many files of the workspace are checked without being open. */
    maxFiles: number;
  };
  files: {
    /** More globs (relative to a workspace folder) of files to look at besides `*.lwir.json|yaml|yml`. */
    include: readonly string[];
    /** Globs of files and folders the workspace scan leaves out (besides the editor's `files.exclude`). */
    exclude: readonly string[];
  };
  /** Documents larger than this many bytes (UTF-8) get one notice instead of full analysis. */
  maxFileSize: number;
  lint: {
    /** Levels of our own rules by code (`lwir.lint.rules`); unknown codes and levels are dropped. */
    rules: Readonly<Record<string, RuleLevel>>;
  };
  dryRun: {
    /** The "Preview prompt" code lens on each ai.generate step (`lwir.dryRun.previewLens`). */
    previewLens: boolean;
  };
}

export type ValidationScope = "workspace" | "openFiles";

export const DEFAULT_SETTINGS: LwirSettings = Object.freeze({
  validation: Object.freeze({ enable: true, delay: 150, scope: "workspace", maxFiles: 5000 }),
  files: Object.freeze({ include: Object.freeze([]), exclude: Object.freeze([]) }),
  maxFileSize: 8 * 1024 * 1024,
  lint: Object.freeze({ rules: Object.freeze({}) }),
  dryRun: Object.freeze({ previewLens: true }),
}) as LwirSettings;

/** Whether the settings the client sent name a scope (`lwir.validation.scope`) at all. */
export function scopeGiven(raw: unknown): boolean {
  const scope = pick(unwrap(raw), ["validation", "scope"]);
  return scope === "workspace" || scope === "openFiles";
}

/** The longest debounce we accept; anything larger is almost certainly a unit mistake (seconds vs ms). */
const MAX_DELAY = 60_000;

/**
 * Reads settings from whatever the client sent: `{validation: {enable}}`, `{"validation.enable": …}`
 * or `{lwir: {…}}`. Unknown keys are ignored; missing or ill-typed values keep their defaults.
 */
export function readSettings(raw: unknown, base: LwirSettings = DEFAULT_SETTINGS): LwirSettings {
  const root = unwrap(raw);
  const enable = pick(root, ["validation", "enable"]);
  const delay = pick(root, ["validation", "delay"]);
  const maxFileSize = pick(root, ["maxFileSize"]);
  const rules = pick(root, ["lint", "rules"]);
  const scope = pick(root, ["validation", "scope"]);
  const maxFiles = pick(root, ["validation", "maxFiles"]);
  const include = pick(root, ["files", "include"]);
  const exclude = pick(root, ["files", "exclude"]);
  const previewLens = pick(root, ["dryRun", "previewLens"]);
  return {
    validation: {
      enable: typeof enable === "boolean" ? enable : base.validation.enable,
      delay: isCount(delay) ? Math.min(delay, MAX_DELAY) : base.validation.delay,
      scope: scope === "workspace" || scope === "openFiles" ? scope : base.validation.scope,
      maxFiles: isCount(maxFiles) ? Math.floor(maxFiles) : base.validation.maxFiles,
    },
    files: {
      include: isStringList(include) ? include : base.files.include,
      exclude: isStringList(exclude) ? exclude : base.files.exclude,
    },
    maxFileSize: isCount(maxFileSize) ? maxFileSize : base.maxFileSize,
    lint: { rules: isRecord(rules) ? readRuleLevels(rules) : base.lint.rules },
    dryRun: { previewLens: typeof previewLens === "boolean" ? previewLens : base.dryRun.previewLens },
  };
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((g) => typeof g === "string");
}

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

function unwrap(raw: unknown): Record<string, unknown> {
  if (!isRecord(raw)) return {};
  // didChangeConfiguration with `synchronize.configurationSection` sends `{lwir: {...}}`.
  if (isRecord(raw.lwir)) return raw.lwir;
  return raw;
}

/** `root.a.b`, or `root["a.b"]`, or `root["lwir.a.b"]`. */
function pick(root: Record<string, unknown>, keys: string[]): unknown {
  let node: unknown = root;
  for (const k of keys) node = isRecord(node) ? node[k] : undefined;
  if (node !== undefined) return node;
  const dotted = keys.join(".");
  return root[dotted] !== undefined ? root[dotted] : root[`lwir.${dotted}`];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
