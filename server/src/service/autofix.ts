// Applying the quick fixes that need no choice (`lwir validate --fix`): the same fixes, made by the same
// functions, as the editor's light bulb (codeActions.ts quickFixes), only those marked `auto`. Rounds to a
// fixpoint: apply the fixes whose edits do not touch each other, analyse again, repeat, so a fix that
// uncovers another (quoting a template, then adding the needs entry it reads) completes in one run.
// A round after which the file has more problems than before is undone and fixing stops there.
import type { Format } from "../document/types";
import { analyzeText, type Analysis } from "./analysis";
import { QUOTE_VALUE_TITLE, quickFixes, quoteValueEdit, type FixKind, type KindedFix } from "./codeActions";
import { TEMPLATE_START_MESSAGE } from "../document/yamlErrors";
import { applyRuleLevels, isEmptyDocument, toDiagnostics, type LwirDiagnosticData } from "./diagnostics";
import { applyEdits, type OffsetEdit } from "./edits";
import type { RuleLevels } from "./rules";
import type { Diagnostic } from "vscode-languageserver-types";
import { missingCommaFixes } from "./jsonCommaFix";
import { UNKNOWN_KEY } from "./unknownKeys";
import { RUN_CHECK_CODES } from "../run/checks";

export const MAX_FIX_ROUNDS = 10;

/** `--fix-type problem`: what `--fix` applies unless told otherwise (issue 17: lint fixes when asked). */
export const DEFAULT_FIX_KINDS: ReadonlySet<FixKind> = new Set<FixKind>(["problem"]);

/** `--fix-type all`, and "Fix all in file" in the editor (fixAllInFile.ts). */
export const ALL_FIX_KINDS: ReadonlySet<FixKind> = new Set<FixKind>(["problem", "lint"]);

export interface AutofixOptions {
  /** Which fixes to apply (default DEFAULT_FIX_KINDS: the runtime's problems; did-you-mean guesses of our own checks only when asked). */
  kinds?: ReadonlySet<FixKind>;
  /** Levels of our own rules: a notice that is off is not fixed (as ESLint fixes only enabled rules). */
  rules?: RuleLevels;
  /** At most this many rounds (default MAX_FIX_ROUNDS). */
  maxRounds?: number;
  /** The fixes of one diagnostic; tests replace it, the product never does. */
  fixesFor?: (analysis: Analysis, data: LwirDiagnosticData) => KindedFix[];
}

export interface AutofixResult {
  /** The fixed text (the input itself when nothing was fixed). */
  text: string;
  /** How many fixes were applied. */
  fixed: number;
  /** The titles of the fixes applied, in order. */
  titles: string[];
  /** A round made the file worse and was undone. */
  reverted: boolean;
}

const diagnosticsCache = new WeakMap<Analysis, Diagnostic[]>();

/** The analysis's diagnostics at the user's levels (notices that are off left out); once per analysis. */
function diagnosticsOf(analysis: Analysis, rules: RuleLevels | undefined): Diagnostic[] {
  let all = diagnosticsCache.get(analysis);
  if (!all) diagnosticsCache.set(analysis, (all = toDiagnostics(analysis)));
  return applyRuleLevels(all, rules);
}

/**
 * The file's problems as the fixer counts them: parse errors, findings and the notices that are on. The
 * run-time checks are left out: they speak only once the runtime accepts the document, so the round that
 * fixes its last finding would otherwise seem to add them.
 */
function problemTotal(analysis: Analysis, rules: RuleLevels | undefined): number {
  return diagnosticsOf(analysis, rules).filter((d) => !RUN_CHECK_CODES.includes(String(d.code))).length;
}

/**
 * The `auto` fixes of every diagnostic of the analysis, of the wanted kinds; one per diagnostic (its
 * first), each fix once (three reads of one step share one fix).
 */
export function autoFixes(analysis: Analysis, options: AutofixOptions = {}): KindedFix[] {
  const doc = analysis.document;
  // An unparsable file is never touched; an empty one is not a workflow to fix.
  if (doc.parseErrors.length > 0 || doc.value === undefined || doc.tooDeep || isEmptyDocument(doc)) return [];
  const kinds = options.kinds ?? DEFAULT_FIX_KINDS;
  const fixesFor = options.fixesFor ?? quickFixes;
  const out: KindedFix[] = [];
  const renames: KindedFix[] = [];
  const seen = new Set<string>();
  for (const diagnostic of diagnosticsOf(analysis, options.rules)) {
    const data = diagnostic.data as LwirDiagnosticData | undefined;
    if (!data || typeof data.code !== "string") continue;
    const fix = fixesFor(analysis, data).find((f) => f.auto === true && kinds.has(f.kind) && f.edits.length > 0);
    if (!fix) continue;
    const key = JSON.stringify(fix.edits);
    if (seen.has(key)) continue;
    seen.add(key);
    (data.code === UNKNOWN_KEY ? renames : out).push(fix);
  }
  // A misspelt key renamed changes what the runtime reads (`need:` → `needs:`), which may settle other
  // findings or clash with their fixes (adding a second `needs`): renames go alone, in a round of their own.
  return renames.length > 0 ? renames : out;
}

/**
 * Fixes whose edits neither overlap nor touch one another's, in text order (two insertions at one
 * place, two needs entries appended to one array, wait for the next round, which sees the first).
 */
export function compatibleFixes(fixes: readonly KindedFix[]): KindedFix[] {
  const taken: OffsetEdit[] = [];
  const out: KindedFix[] = [];
  const sorted = [...fixes].sort((a, b) => firstStart(a) - firstStart(b));
  for (const fix of sorted) {
    // (A fix's own edits are made to be applied together, as the editor applies them.)
    if (fix.edits.some((e) => taken.some((t) => touches(e, t)))) continue;
    taken.push(...fix.edits);
    out.push(fix);
  }
  return out;
}

function firstStart(fix: KindedFix): number {
  return Math.min(...fix.edits.map((e) => e.start));
}

function touches(a: OffsetEdit, b: OffsetEdit): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/**
 * Applies auto fixes to a fixpoint (see the top of the file). The text of an unparsable document comes
 * back unchanged.
 *
 * Two guards. Each round: the file's problems (findings, parse errors and the notices that are on) must
 * not grow, else the round is undone and fixing stops. A round may trade a notice for a finding (quoting
 * `{{ steps.a.output }}` makes it a read of `a` the runtime checks); the next round usually fixes that.
 * At the end: the runtime's findings must not outnumber those the file had, else the file goes back to
 * the last round that kept them in check (a `--fix-type lint` run that quoted such a template and may
 * not add the needs entry leaves the template as it was).
 */
export function autofixText(text: string, format: Format, options: AutofixOptions = {}): AutofixResult {
  const maxRounds = options.maxRounds ?? MAX_FIX_ROUNDS;
  const commas = format === "json" ? insertMissingCommas(text, format)
    : (options.kinds ?? DEFAULT_FIX_KINDS).has("problem") ? quoteTemplateValues(text, format) : { text, analysis: analyzeText(text, format), titles: [] };
  let current = commas.text;
  let analysis = commas.analysis;
  let total = problemTotal(analysis, options.rules);
  const findingsBefore = analysis.findings.length;
  const titles: string[] = [...commas.titles];
  // The last state with no more findings than the file had: where a run that ends worse goes back to.
  let safe = { text: current, count: titles.length };
  let reverted = false;
  for (let round = 0; round < maxRounds; round++) {
    const fixes = compatibleFixes(autoFixes(analysis, options));
    if (fixes.length === 0) break;
    const next = applyEdits(current, fixes.flatMap((f) => f.edits));
    if (next === current) break;
    const after = analyzeText(next, format);
    const nextTotal = problemTotal(after, options.rules);
    if (after.document.parseErrors.length > 0 || nextTotal > total) {
      reverted = true;
      break;
    }
    titles.push(...fixes.map((f) => f.title));
    current = next;
    analysis = after;
    total = nextTotal;
    if (after.findings.length <= findingsBefore) safe = { text: current, count: titles.length };
  }
  if (analysis.findings.length > findingsBefore) {
    return { text: safe.text, fixed: safe.count, titles: titles.slice(0, safe.count), reverted: true };
  }
  return { text: current, fixed: titles.length, titles, reverted };
}

/**
 * A JSON text's missing commas (jsonCommaFix.ts), inserted before anything else: the only syntax errors
 * with one right fix. Kept only when the text then has fewer syntax errors; the fixes of a document that
 * parses follow in autofixText.
 */
function insertMissingCommas(text: string, format: Format): { text: string; analysis: Analysis; titles: string[] } {
  const first = analyzeText(text, format);
  let analysis = first;
  let current = text;
  const titles: string[] = [];
  // The parser reports its first syntax error: one comma a round, each past the one before.
  for (let round = 0; format === "json" && round < MAX_COMMAS; round++) {
    const fixes = missingCommaFixes(analysis.document);
    if (fixes.length === 0) break;
    current = applyEdits(current, fixes.map((f) => f.fix.edits[0]));
    analysis = analyzeText(current, format);
    titles.push(...fixes.map((f) => f.fix.title));
  }
  // Kept when the text then parses: a comma that only moves the error on to something else is left for a person.
  if (titles.length === 0 || analysis.document.parseErrors.length > 0) return { text, analysis: first, titles: [] };
  return { text: current, analysis, titles };
}

/**
 * YAML values that start with an unquoted `{{` and that YAML cannot read at all (`prompt: {{ a }} and {{ b }}`):
 * quoted, as the template they can only be, before anything else. The same fix as an unquoted template YAML
 * does read (lwir.yaml_unquoted_template), and the editor's "Quote this value" on that syntax error. Kept
 * only when the text then parses, as the missing commas of JSON are.
 */
function quoteTemplateValues(text: string, format: Format): { text: string; analysis: Analysis; titles: string[] } {
  const first = analyzeText(text, format);
  const values = first.document.parseErrors.flatMap((p) => (p.value && p.message === TEMPLATE_START_MESSAGE ? [p.value] : []));
  if (values.length === 0) return { text, analysis: first, titles: [] };
  const fixed = applyEdits(text, values.map(quoteValueEdit));
  const analysis = analyzeText(fixed, format);
  if (analysis.document.parseErrors.length > 0) return { text, analysis: first, titles: [] };
  return { text: fixed, analysis, titles: values.map(() => QUOTE_VALUE_TITLE) };
}

/** At most this many missing commas are inserted in one file. */
const MAX_COMMAS = 100;
