// Warnings about the bytes of a file the runtime still reads (docs/rules/lwir.invalid_utf8.md,
// lwir.nul_byte.md): bytes that are not UTF-8 (the runtime reads each sequence as U+FFFD) and NUL
// characters (read as U+0000). Never findings: the runtime validates and runs such a file.
import type { InvalidUtf8 } from "../document/decode";
import type { LwirDocument, Range } from "../document/types";

export const INVALID_UTF8 = "lwir.invalid_utf8";
export const NUL_BYTE = "lwir.nul_byte";

/** At most this many warnings of each code per file (a binary file named on the command line has thousands). */
const MAX_PER_CODE = 20;

export interface SourceByteNotice {
  code: typeof INVALID_UTF8 | typeof NUL_BYTE;
  message: string;
  range: Range;
}

/**
 * The warnings for one document: `invalidUtf8` from the reader (decodeUtf8; only it knows which U+FFFDs were
 * bytes), NUL characters from the text itself, so an editor's text gets them too. Each run of adjacent
 * characters is one warning.
 */
export function sourceByteNotices(doc: LwirDocument, invalidUtf8: readonly InvalidUtf8[] = []): SourceByteNotice[] {
  const out: SourceByteNotice[] = [];
  const invalidRuns = runs(invalidUtf8.map((i) => i.offset));
  const byOffset = new Map(invalidUtf8.map((i) => [i.offset, i.bytes]));
  capped(invalidRuns, (run, more) => {
    const bytes: number[] = [];
    for (let o = run.start; o < run.end; o++) bytes.push(...(byOffset.get(o) ?? []));
    const shown = bytes.slice(0, 8).map(hex).join(" ") + (bytes.length > 8 ? " …" : "");
    const n = run.end - run.start;
    out.push({
      code: INVALID_UTF8,
      range: doc.rangeAt(run.start, run.end),
      message:
        `${bytes.length === 1 ? "Byte" : "Bytes"} ${shown} ${bytes.length === 1 ? "is" : "are"} not UTF-8: the runtime reads the file as UTF-8 ` +
        `and sees ${n === 1 ? "U+FFFD (\ufffd)" : `${n} U+FFFD (\ufffd)`} here. Save the file as UTF-8.${more}`,
    });
  });
  const nuls: number[] = [];
  for (let i = doc.text.indexOf("\0"); i >= 0; i = doc.text.indexOf("\0", i + 1)) nuls.push(i);
  capped(runs(nuls), (run, more) => {
    const n = run.end - run.start;
    out.push({
      code: NUL_BYTE,
      range: doc.rangeAt(run.start, run.end),
      message:
        `${n === 1 ? "A NUL character" : `${n} NUL characters`} (byte 0x00): the runtime reads ${n === 1 ? "it" : "them"} as U+0000, ` +
        `but editors and other tools take a file with NUL bytes for binary, and folder scans skip it. Remove ${n === 1 ? "it" : "them"}.${more}`,
    });
  });
  return out;
}

function hex(b: number): string {
  return "0x" + b.toString(16).toUpperCase().padStart(2, "0");
}

/** Sorted offsets → runs of adjacent ones, [start, end). */
function runs(offsets: readonly number[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const o of offsets) {
    const last = out[out.length - 1];
    if (last && last.end === o) last.end = o + 1;
    else out.push({ start: o, end: o + 1 });
  }
  return out;
}

/** The first MAX_PER_CODE runs; the last one shown says how many more there are. */
function capped(all: Array<{ start: number; end: number }>, each: (run: { start: number; end: number }, more: string) => void): void {
  const shown = all.slice(0, MAX_PER_CODE);
  shown.forEach((run, i) => {
    const rest = all.length - shown.length;
    each(run, i === shown.length - 1 && rest > 0 ? ` (${rest} more such places in this file are not listed.)` : "");
  });
}
