// Glob patterns as VS Code writes them in `files.exclude`, as users write `lwir.files.include` /
// `lwir.files.exclude` and the configuration file's `ignore` / `include`, and as the CLI takes them:
// matched by picomatch against a path relative to the folder, `/`-separated. `**` spans folders,
// `*` and `?` stay within one, `{a,b}`, `[abc]` and `[!abc]` as usual; dot files match like any other
// name (VS Code does the same); parentheses, `+(x)` and an unbalanced brace are taken literally (VS Code's
// globs have no extglobs or groups).
import picomatch from "picomatch/posix";

const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, noextglob: true };

/** VS Code's reading of the characters picomatch gives another meaning. */
function literalGroups(pattern: string): string {
  const escaped = pattern.replace(/[()]/g, "\\$&");
  const opens = (escaped.match(/\{/g) ?? []).length;
  const closes = (escaped.match(/\}/g) ?? []).length;
  return opens === closes ? escaped : escaped.replace(/[{}]/g, "\\$&");
}

/** Compiles a glob to a regular expression matching a whole relative path. Never throws. */
export function globToRegExp(glob: string): RegExp {
  // A leading "./" or "/" means "from the folder's root", which every pattern already is.
  const pattern = glob.trim().replace(/^\.?\/+/, "");
  try {
    return picomatch.makeRe(literalGroups(pattern), OPTIONS);
  } catch {
    // A pattern that does not compile matches only itself.
    return new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`);
  }
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

/** Does the text contain glob syntax (so a command-line PATH that is not a file is read as a pattern)? */
export function isGlob(text: string): boolean {
  // Braces alone (`$(x${IFS}y)`, a file name) are not taken for a pattern: one of * ? [ must be there too.
  return /[*?[]/.test(text) && picomatch.scan(text).isGlob;
}

/** The folder part of a glob before its first glob character (`flows/**` → `flows`; `*.yaml` → ""). */
export function globBase(glob: string): string {
  return picomatch.scan(glob).base;
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
