// Glob patterns as VS Code writes them in `files.exclude` and as users write `lwir.files.include` /
// `lwir.files.exclude`: matched against a path relative to the workspace folder, `/`-separated.
//   **   any number of path segments (`**/x` matches `x` at any depth, `a/**` everything under `a`)
//   *    any characters within one segment     ?  one character within a segment
//   {a,b} either alternative (may hold globs)   [abc] [a-z] [!abc]  one character of (not of) the set
// Pure, no Node APIs; a pattern becomes one regular expression, compiled once.

/** Compiles a glob to a regular expression matching a whole relative path. Never throws. */
export function globToRegExp(glob: string): RegExp {
  // A leading "./" or "/" means "from the folder's root", which every pattern already is.
  const pattern = glob.trim().replace(/^\.?\/+/, "");
  try {
    return new RegExp(`^${translate(pattern)}$`);
  } catch {
    // A pattern that does not compile (an odd character class) matches only itself.
    return new RegExp(`^${escapeRegExp(pattern)}$`);
  }
}

function translate(pattern: string): string {
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atStart = i === 0 || pattern[i - 1] === "/";
        const next = pattern[i + 2];
        if (atStart && next === "/") {
          out += "(?:[^/]*/)*"; // `**/`: zero or more whole segments
          i += 3;
          continue;
        }
        if (atStart && next === undefined) {
          out += ".*"; // a trailing `**`: everything below
          i += 2;
          continue;
        }
        out += "[^/]*"; // `**` inside a segment is just `*`
        i += 2;
        continue;
      }
      out += "[^/]*";
      i++;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "{") {
      const close = matchingBrace(pattern, i);
      if (close === -1) {
        out += "\\{";
        i++;
        continue;
      }
      const alternatives = splitTopLevel(pattern.slice(i + 1, close));
      out += `(?:${alternatives.map(translate).join("|")})`;
      i = close + 1;
    } else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        i++;
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^/" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = close + 1;
    } else {
      out += escapeRegExp(c);
      i++;
    }
  }
  return out;
}

function matchingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    if (pattern[i] === "{") depth++;
    else if (pattern[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Several globs; a path matches when any does. */
export class GlobSet {
  private readonly patterns: RegExp[];

  constructor(globs: readonly string[]) {
    this.patterns = globs.filter((g) => g.trim() !== "").map(globToRegExp);
  }

  get empty(): boolean {
    return this.patterns.length === 0;
  }

  matches(relativePath: string): boolean {
    for (const p of this.patterns) if (p.test(relativePath)) return true;
    return false;
  }
}

/**
 * The globs of a VS Code exclude setting (`files.exclude`): an object of glob → true/false. Entries set
 * to false are off; entries with a `when` condition (exclude `x.js` when `x.ts` exists) are left out,
 * since they depend on sibling files: such files are checked rather than silently skipped.
 */
export function excludeGlobs(setting: unknown): string[] {
  if (Array.isArray(setting)) return setting.filter((g): g is string => typeof g === "string");
  if (typeof setting !== "object" || setting === null) return [];
  return Object.entries(setting as Record<string, unknown>).filter(([, on]) => on === true).map(([glob]) => glob);
}
