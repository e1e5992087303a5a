// Finding and reading the files to check. Folder walking and reading use node:fs; the decisions
// (which names count, which format, how bytes become text) are pure functions.
import * as nodeFs from "node:fs";
import { existsSync, lstatSync, readFileSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
// Required, not imported: the bundler then takes fdir's CommonJS build (its ES module build needs import.meta.url).
import fdirModule = require("fdir");
import { formatOf } from "../document/document";
import { isConfigFileName } from "../service/config";
import { declaresLwir } from "../service/workspace";
import { globBase, GlobSet, isGlob } from "../workspace/glob";
import { relativeTo, type ConfigLookup } from "./config";
import type { Failure, Format } from "./report";

const LWIR_NAME = /\.lwir\.(json|ya?ml)$/;

/** Never searched inside (given explicitly, they are): dependencies and VCS data are not the user's workflows. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** Names picked up inside folders (a file given explicitly is checked whatever its name); not the configuration file's. */
export function isLwirFileName(name: string): boolean {
  return LWIR_NAME.test(name) && !isConfigFileName(name);
}

/** The format a file name implies (the editor's rule), or undefined when the extension says nothing. */
export { formatOf };

/** For names without a telling extension: JSON documents start with `{` or `[`, anything else is read as YAML. */
export function sniffFormat(text: string): Format {
  const first = /\S/.exec(text)?.[0];
  return first === "{" || first === "[" ? "json" : "yaml";
}

/** Bytes → text (document/decode.ts, shared with the language server's workspace scan). */
export { decodeSource, type Decoded } from "../document/decode";

/** Format of undecodable bytes, for the report: by name, else by the first non-space byte. */
export function formatOfBytes(name: string, bytes: Uint8Array): Format {
  const byName = formatOf(name);
  if (byName) return byName;
  for (const b of bytes) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b || b === 0x5b ? "json" : "yaml";
  }
  return "yaml";
}

/** Appends a name to a folder exactly as the user wrote the folder (`./x` stays `./x/...`). */
export function joinDisplay(folder: string, name: string): string {
  return folder.endsWith("/") || folder.endsWith(sep) ? folder + name : folder + sep + name;
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "symbolic link loop",
  ENOTDIR: "not a folder",
  EISDIR: "is a folder",
  ENAMETOOLONG: "name too long",
};

/** A short, stable reason for an fs error (no stack, no syscall noise). */
export function reasonOf(error: unknown, path?: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT" && path !== undefined && isDanglingLink(path)) return "dangling symbolic link";
  if (typeof code === "string" && REASONS[code]) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export interface Collected {
  /** Files to check, as they will be displayed, in order, without duplicates. */
  files: string[];
  failures: Failure[];
  /** Folders and patterns given on the command line that hold or match no LWIR file. */
  emptyFolders: string[];
  /** Where "-" (standard input) sits among the files, or -1 when it was not given. */
  stdinIndex: number;
  /** What was skipped and why (a link loop or a dangling link inside a folder, an ignored file): stderr, not failures. */
  notices: string[];
}

export interface CollectOptions {
  /** --ignore-pattern: globs relative to the working folder. */
  ignorePatterns?: readonly string[];
  /** The configuration files (their `ignore` and `include`); none looked for when absent. */
  configs?: ConfigLookup;
  /** The working folder (tests); process.cwd() by default. */
  cwd?: string;
  /** Which files inside folders are taken (default: LWIR names and the configuration's includes); `lwir test` takes scenarios files. */
  take?: (absolute: string, name: string) => boolean;
}

/** Expands the command-line paths into files: folders recursively and glob patterns, entries sorted by name. */
export function collectFiles(paths: readonly string[], options: CollectOptions = {}): Collected {
  const cwd = options.cwd ?? process.cwd();
  const files: string[] = [];
  const failures: Failure[] = [];
  const emptyFolders: string[] = [];
  const notices: string[] = [];
  let stdinIndex = -1;
  const seen = new Set<string>();
  const ignored = new GlobSet(options.ignorePatterns ?? []);
  const configs = options.configs;
  /** Left out by --ignore-pattern or the `ignore` of the configuration that applies. */
  const isIgnored = (absolute: string): boolean =>
    (!ignored.empty && ignored.matches(relativeTo(cwd, absolute))) || (configs?.ignores(absolute) ?? false);
  const add = (file: string): void => {
    const key = resolve(cwd, file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const path of paths) {
    if (path === "-") {
      stdinIndex = files.length;
      continue;
    }
    let isDir: boolean;
    try {
      const st = statSync(resolve(cwd, path));
      if (!st.isDirectory() && !st.isFile()) {
        failures.push({ path, reason: "not a regular file or folder", kind: "unreadable" });
        continue;
      }
      isDir = st.isDirectory();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT" && isGlob(path)) {
        // A quoted pattern (`'flows/**/*.lwir.yaml'`): the files it matches, whatever their names, as the shell would expand it.
        const base = globBase(path);
        // `*/x.json` matches are shown as `a/x.json`, as the shell shows them, not `./a/x.json`.
        const found = existsSync(resolve(cwd, base)) ? walk(cwd, base || ".", { isIgnored, take: globTaker(cwd, path) }, failures, notices, base === "") : [];
        for (const f of found) add(f);
        if (found.length === 0) emptyFolders.push(path);
        continue;
      }
      failures.push({ path, reason: reasonOf(error, resolve(cwd, path)), kind: "unreadable" });
      continue;
    }
    if (!isDir) {
      // A file named on the command line is checked, unless an ignore pattern names it (said once, on stderr).
      if (isIgnored(resolve(cwd, path))) notices.push(`${path}: ignored (an ignore pattern matches it)`);
      else add(path);
      continue;
    }
    const unreadableBefore = failures.length;
    const take = options.take ?? ((absolute: string, name: string) => takesInFolder(absolute, name, configs));
    const found = walk(cwd, path, { isIgnored, take }, failures, notices);
    for (const f of found) add(f);
    // A folder that could not be read at all is reported once, as unreadable, not also as empty.
    const rootUnreadable = failures.slice(unreadableBefore).some((f) => f.path === path);
    if (found.length === 0 && !rootUnreadable) emptyFolders.push(path);
  }
  return { files, failures, emptyFolders, stdinIndex, notices };
}

/** In a folder: LWIR names, and the files the configuration's `include` names that declare an LWIR apiVersion. */
function takesInFolder(absolute: string, name: string, configs: ConfigLookup | undefined): boolean {
  if (isConfigFileName(name)) return false;
  if (isLwirFileName(name)) return true;
  const config = configs?.forFile(absolute);
  if (!config || config.include.empty || !config.include.matches(relativeTo(config.folder, absolute))) return false;
  const format = formatOf(name);
  if (!format) return false;
  try {
    return declaresLwir(readFileSync(absolute, "utf8"), format, INCLUDE_SNIFF_LIMIT);
  } catch {
    return true; // the check reports why it cannot be read
  }
}

/** How much of a file an `include` pattern names is searched for an LWIR apiVersion (as the workspace scan does). */
const INCLUDE_SNIFF_LIMIT = 64 * 1024;

function globTaker(cwd: string, pattern: string): (absolute: string) => boolean {
  const glob = new GlobSet([pattern.split(sep).join("/")]);
  const absolute = isAbsolute(pattern);
  return (file) => glob.matches(absolute ? file.split(sep).join("/") : relativeTo(cwd, file));
}

interface WalkRules {
  isIgnored(absolute: string): boolean;
  take(absolute: string, name: string): boolean;
}

/**
 * All files below one folder that `rules.take`, depth-first in name order (a subfolder's files come
 * where its name sorts), through fdir. A folder link is followed once: a link back to a folder that
 * contains it (a loop) and a dangling link with an LWIR name are skipped with a notice, since the rest
 * of the tree is still checked; a folder that cannot be listed is a failure (what it holds was not checked).
 */
function walk(cwd: string, root: string, rules: WalkRules, failures: Failure[], notices: string[], bare = false): string[] {
  const rootAbsolute = resolve(cwd, root);
  const display = (absolute: string): string => {
    const rel = relative(rootAbsolute, absolute);
    return rel === "" ? root : bare ? rel : joinDisplay(root, rel);
  };
  /** Real paths of the folders walked so far, by the path they were reached through (with a trailing separator). */
  const realOf = new Map<string, string>();
  const walked = new Set<string>();
  try {
    const rootReal = realpathSync.native(rootAbsolute);
    realOf.set(rootAbsolute + sep, rootReal);
    walked.add(rootReal);
  } catch (error) {
    failures.push({ path: root, reason: reasonOf(error, rootAbsolute), kind: "unreadable" });
    return [];
  }
  const reportedFolders = new Set<string>();
  const fs = {
    ...nodeFs,
    // Sorted, so the (synchronous, depth-first) walk goes in name order; a folder that cannot be listed is reported once.
    readdirSync: ((folder: string, options: { withFileTypes: true }) => {
      try {
        const entries = (nodeFs.readdirSync(folder, options) as Dirent[]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        // fdir passes over what is neither a file, a folder nor a link (a FIFO, a socket, a device): one with an
        // LWIR name cannot be read, and is said so, as before
        for (const e of entries) {
          if (e.isFile() || e.isDirectory() || e.isSymbolicLink() || !isLwirFileName(e.name) || isConfigFileName(e.name)) continue;
          const path = join(folder, e.name);
          if (!rules.isIgnored(path)) failures.push({ path: display(path), reason: "not a regular file", kind: "unreadable" });
        }
        return entries;
      } catch (error) {
        const key = folder.endsWith(sep) ? folder.slice(0, -1) : folder;
        if (!reportedFolders.has(key)) {
          reportedFolders.add(key);
          failures.push({ path: display(key), reason: reasonOf(error, key), kind: "unreadable" });
        }
        throw error;
      }
    }) as typeof nodeFs.readdirSync,
    // fdir resolves each link here: a dangling link or a link to itself fails; one with an LWIR name is said so.
    realpathSync: ((link: string) => {
      try {
        return nodeFs.realpathSync(link);
      } catch (error) {
        const name = basename(link);
        if (isLwirFileName(name) && !isConfigFileName(name)) notices.push(`${display(link)}: skipped, ${reasonOf(error, link)}`);
        throw error;
      }
    }) as typeof nodeFs.realpathSync,
  } as fdirModule.FSLike;
  const found = new fdirModule.fdir({ fs })
    .withSymlinks({ resolvePaths: false })
    .withFullPaths()
    .exclude((name, folderPath) => {
      if (SKIPPED_FOLDERS.has(name)) return true;
      const folder = folderPath.endsWith(sep) ? folderPath.slice(0, -1) : folderPath;
      if (rules.isIgnored(folder)) return true;
      let real: string;
      try {
        real = realpathSync.native(folder);
      } catch {
        return true; // gone meanwhile
      }
      const parentReal = realOf.get(dirname(folder) + sep) ?? dirname(real);
      if (parentReal === real || parentReal.startsWith(real + sep)) {
        notices.push(`${display(folder)}: skipped, symbolic link loop (it leads back to a folder that contains it)`);
        return true;
      }
      if (walked.has(real)) return true; // reached before through another link: walked once
      walked.add(real);
      realOf.set(folder + sep, real);
      return false;
    })
    .filter((path) => !rules.isIgnored(path) && rules.take(path, basename(path)))
    .crawl(rootAbsolute)
    .sync();
  return found.map(display);
}
