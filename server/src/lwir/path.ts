// Paths are built as cheap linked nodes while walking and only turned into strings for findings.
import type { PathSegment } from "./types";

export interface Path {
  readonly parent: Path | undefined;
  readonly seg: PathSegment;
  /** Written as `["name"]` (JSON string literal) instead of `.name`: code.run file names (catalog 1.2). */
  readonly quoted?: boolean;
}

export const ROOT: Path = { parent: undefined, seg: "$" };

export function key(parent: Path, name: string): Path {
  return { parent, seg: name };
}
export function index(parent: Path, i: number): Path {
  return { parent, seg: i };
}
export function fileKey(parent: Path, name: string): Path {
  return { parent, seg: name, quoted: true };
}

/** The segments below the root, outermost first. */
export function segmentsOf(path: Path): PathSegment[] {
  const out: PathSegment[] = [];
  for (let p: Path | undefined = path; p && p.parent; p = p.parent) out.push(p.seg);
  return out.reverse();
}

/** The linked path of plain segments (none quoted), e.g. to write segments from elsewhere with pathString. */
export function pathOfSegments(segments: readonly PathSegment[]): Path {
  let path = ROOT;
  for (const seg of segments) path = { parent: path, seg };
  return path;
}

/** `$`, `.key` unescaped, `[i]`, and `files["name"]` for quoted segments. */
export function pathString(path: Path): string {
  const parts: string[] = [];
  for (let p: Path | undefined = path; p && p.parent; p = p.parent) {
    if (typeof p.seg === "number") parts.push(`[${p.seg}]`);
    else if (p.quoted) parts.push(`[${JSON.stringify(p.seg)}]`);
    else parts.push(`.${p.seg}`);
  }
  return "$" + parts.reverse().join("");
}

/** The value at a path of segments (own properties only), or undefined when something on the way is absent. */
export function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let node = root;
  for (const seg of segments) {
    if (typeof seg === "number") node = Array.isArray(node) ? node[seg] : undefined;
    else node = typeof node === "object" && node !== null && !Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, seg)
      ? (node as Record<string, unknown>)[seg] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Every string inside `value` that mentions `steps` (where a step reference can be; or `needle`), with its path, in
 * document order; iterative, keys are never read, and a value seen twice (a YAML alias) is walked once.
 */
export function forEachStepString(value: unknown, segments: PathSegment[], visit: (value: string, segments: PathSegment[]) => void, needle = "steps"): void {
  const stack: Array<[unknown, PathSegment[]]> = [[value, segments]];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.indexOf(needle) >= 0) visit(v, path);
    } else if (typeof v === "object" && v !== null && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (let k = v.length - 1; k >= 0; k--) stack.push([v[k], [...path, k]]);
      else {
        const keys = Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) stack.push([(v as Record<string, unknown>)[keys[k]], [...path, keys[k]]]);
      }
    }
  }
}
