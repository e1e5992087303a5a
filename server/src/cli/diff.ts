// A unified diff of two texts by lines (`lwir validate --fix-dry-run`), readable by `patch` and `git apply`.
// Lines are compared by jsdiff (`diff`: Myers' O((N+M)·D) algorithm, so the few lines a fix changes in a
// long file cost little); the lines are split here because a lone CR ends a line as the editor counts
// them, and the hunks are written here to keep `diff -u`'s exact form.
import { diffArrays } from "diff";

export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3, as diff -u). */
  context?: number;
}

/** A text's lines, each with its line break ("a\r\n" stays "a\r\n"); the last may have none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

type Op = { kind: " " | "-" | "+"; line: string };

/** The edit script from `a` to `b`: each line kept, removed or added, in order (jsdiff's Myers on arrays of lines). */
export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  const ops: Op[] = [];
  for (const change of diffArrays(a as string[], b as string[])) {
    const kind = change.added ? "+" : change.removed ? "-" : " ";
    for (const line of change.value) ops.push({ kind, line });
  }
  return ops;
}

/**
 * `--- a/NAME` / `+++ b/NAME` and @@ hunks, or "" when the texts are equal. A last line without a line
 * break is marked "\ No newline at end of file", as diff does.
 */
export function unifiedDiff(before: string, after: string, name: string, options: DiffOptions = {}): string {
  if (before === after) return "";
  const context = options.context ?? 3;
  const ops = diffLines(splitLines(before), splitLines(after));
  const out: string[] = [`--- a/${name}\n`, `+++ b/${name}\n`];
  // Positions (in ops) of the changes, grouped into hunks whose context overlaps.
  const changed = ops.flatMap((op, i) => (op.kind === " " ? [] : [i]));
  let i = 0;
  while (i < changed.length) {
    let last = i;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= 2 * context + 1) last++;
    const from = Math.max(0, changed[i] - context);
    const to = Math.min(ops.length, changed[last] + context + 1);
    // 1-based starts: the lines before the hunk, plus one (or the line before, for an empty side).
    let oldLine = 0;
    let newLine = 0;
    for (let j = 0; j < from; j++) {
      if (ops[j].kind !== "+") oldLine++;
      if (ops[j].kind !== "-") newLine++;
    }
    const hunk = ops.slice(from, to);
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@\n`);
    for (const op of hunk) {
      const body = op.line.replace(/\r?\n$|\r$/, "");
      const eol = op.line.slice(body.length);
      out.push(op.kind + body + (eol === "" ? "\n\\ No newline at end of file\n" : eol));
    }
    i = last + 1;
  }
  return out.join("");
}

function range(before: number, count: number): string {
  const start = count === 0 ? before : before + 1;
  return count === 1 ? `${start}` : `${start},${count}`;
}
