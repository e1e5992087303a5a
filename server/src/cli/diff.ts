// A unified diff of two texts by lines (`lwir validate --fix-dry-run`), readable by `patch` and `git apply`.
// Lines are compared with Myers' O((N+M)·D) algorithm after the common head and tail are cut off: a fix
// changes a few lines of a long file, so D is small and so is the work.

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

/** The edit script from `a` to `b`: each line kept, removed or added, in order. */
export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [
    ...a.slice(0, head).map((line): Op => ({ kind: " ", line })),
    ...middle,
    ...a.slice(a.length - tail).map((line): Op => ({ kind: " ", line })),
  ];
}

/** Myers' greedy shortest edit script, keeping each round's furthest points to walk back. */
function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      next[offset + k] = x;
      if (x >= n && y >= m) { found = d; break; }
    }
    v = next;
  }
  // Walk back from (n, m): each round's snapshot says which diagonal the path came from.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1] < prev[offset + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: " ", line: a[--x] }), y--;
    if (down) ops.push({ kind: "+", line: b[--y] });
    else ops.push({ kind: "-", line: a[--x] });
  }
  while (x > 0 && y > 0) ops.push({ kind: " ", line: a[--x] }), y--;
  return ops.reverse();
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
