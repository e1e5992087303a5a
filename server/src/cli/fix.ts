// `lwir validate --fix` / `--fix-dry-run` for one file: the fixes that need no choice (service/autofix.ts,
// the editor's own quick fixes) applied to the text, the file written back atomically (a temporary file
// beside it, then a rename), and the report of what remains. A file that does not decode or parse is
// never touched.
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, chmodSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { autofixText } from "../service/autofix";
import type { FixKind } from "../service/codeActions";
import type { RuleLevels } from "../service/rules";
import { checkBytes, isFailure, readDecoded } from "./check";
import { unifiedDiff } from "./diff";
import { decodeSource, reasonOf } from "./files";
import type { Failure, FileReport } from "./report";

export interface FixOptions {
  rules?: RuleLevels;
  /** The kinds of fixes to apply; undefined: all. */
  kinds?: readonly FixKind[];
  /** false: compute the diff, write nothing (--fix-dry-run). */
  write: boolean;
  /** As CheckOptions.binary: "skip" for files found in a folder. */
  binary?: "skip" | "read";
}

export interface FixedFile {
  /** The report of what remains after the fixes (or would remain, in a dry run). */
  report: FileReport | Failure;
  /** The file could not be written back (it is reported as it was). */
  failure?: Failure;
  /** The text before and after the fixes (BOM left out), when they changed it. */
  change?: { before: string; after: string; titles: string[] };
}

/** Fixes a file on disk (see the top of the file). */
export function fixFile(file: string, options: FixOptions): FixedFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { report: { path: file, reason: reasonOf(error, file), kind: "unreadable" } };
  }
  return fixBytes(file, bytes, options, file, options.write ? file : undefined);
}

/**
 * Fixes bytes shown under `name` (format from `formatName`, as checkBytes); writes the result to
 * `target` when given and something changed.
 */
export function fixBytes(name: string, bytes: Uint8Array, options: FixOptions, formatName: string = name, target?: string): FixedFile {
  const fixed = fixedText(bytes, formatName, options);
  const check = { rules: options.rules, binary: options.binary };
  if (!fixed) return { report: withFix(checkBytes(name, bytes, check, formatName), 0, options.write ? undefined : "") };
  const diff = unifiedDiff(fixed.before, fixed.after, name);
  const out = Buffer.from(fixed.bom + fixed.after, "utf8");
  if (target !== undefined) {
    try {
      writeAtomically(target, out);
    } catch (error) {
      const failure: Failure = { path: name, reason: reasonOf(error, name), kind: "unwritable" };
      return { report: withFix(checkBytes(name, bytes, check, formatName), 0, undefined), failure };
    }
  }
  const change = { before: fixed.before, after: fixed.after, titles: fixed.titles };
  return { report: withFix(checkBytes(name, out, check, formatName), fixed.count, options.write ? undefined : diff), change };
}

/** The fixed text, or undefined when nothing changes (or the bytes are not text the fixer may touch). */
function fixedText(bytes: Uint8Array, formatName: string, options: FixOptions): { before: string; after: string; bom: string; count: number; titles: string[] } | undefined {
  const decoded = decodeSource(bytes, options.binary ?? "read");
  // Bytes that are not UTF-8 would be written back as U+FFFD: such a file is left alone (lwir.invalid_utf8 says why).
  if (!decoded.ok || decoded.invalidUtf8.length > 0) return undefined;
  // As checkBytes: YAML may start with a BOM (kept when writing back); in JSON it is a parse error, so the file is left alone.
  const { text: before, bom, format } = readDecoded(decoded, formatName);
  const result = autofixText(before, format, { rules: options.rules, ...(options.kinds ? { kinds: new Set(options.kinds) } : {}) });
  if (result.fixed === 0 || result.text === before) return undefined;
  return { before, after: result.text, bom, count: result.fixed, titles: result.titles };
}

function withFix(report: FileReport | Failure, fixed: number, diff: string | undefined): FileReport | Failure {
  if (isFailure(report)) return report;
  return { ...report, fixed, ...(diff !== undefined ? { diff } : {}) };
}

/**
 * Replaces a file's content all at once: a temporary file in the same folder (so the rename stays on
 * one file system), flushed, given the file's permissions, then renamed over it. A reader sees the old
 * file or the new one, never half of it; a symbolic link stays a link (its target is replaced).
 */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  const real = realpathSync(file);
  const mode = statSync(real).mode & 0o7777;
  const temp = join(dirname(real), `.${basename(real)}.${process.pid}-${randomBytes(4).toString("hex")}.lwir-fix`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o600);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    chmodSync(temp, mode);
    renameSync(temp, real);
  } catch (error) {
    if (fd !== undefined) {
      try { closeSync(fd); } catch { /* already failing */ }
    }
    try { unlinkSync(temp); } catch { /* never created */ }
    throw error;
  }
}
