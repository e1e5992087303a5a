// Finding and reading the files to check. Folder walking and reading use node:fs; the decisions
// (which names count, which format, how bytes become text) are pure functions.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent } from "node:fs";
import { resolve, sep } from "node:path";
import { formatOf } from "../document/document";
import type { Failure, Format } from "./report";

const LWIR_NAME = /\.lwir\.(json|ya?ml)$/;

/** Never searched inside (given explicitly, they are): dependencies and VCS data are not the user's workflows. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** Names picked up inside folders (a file given explicitly is checked whatever its name). */
export function isLwirFileName(name: string): boolean {
  return LWIR_NAME.test(name);
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
  /** Folders given on the command line that hold no LWIR file. */
  emptyFolders: string[];
  /** Where "-" (standard input) sits among the files, or -1 when it was not given. */
  stdinIndex: number;
}

/** Expands the command-line paths into files: folders recursively, entries sorted by name. */
export function collectFiles(paths: readonly string[]): Collected {
  const files: string[] = [];
  const failures: Failure[] = [];
  const emptyFolders: string[] = [];
  let stdinIndex = -1;
  const seen = new Set<string>();
  const add = (file: string): void => {
    const key = resolve(file);
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
      const st = statSync(path);
      if (!st.isDirectory() && !st.isFile()) {
        failures.push({ path, reason: "not a regular file or folder", kind: "unreadable" });
        continue;
      }
      isDir = st.isDirectory();
    } catch (error) {
      failures.push({ path, reason: reasonOf(error, path), kind: "unreadable" });
      continue;
    }
    if (!isDir) {
      add(path);
      continue;
    }
    const found: string[] = [];
    walkFolder(path, found, failures);
    for (const f of found) add(f);
    if (found.length === 0) emptyFolders.push(path);
  }
  return { files, failures, emptyFolders, stdinIndex };
}

/**
 * Depth-first over one given folder, entries in name order (a subfolder's files come where its name
 * sorts). A link back to a folder being walked is a loop, reported since the tree is broken; a folder
 * reached again through another link is walked once. Iterative, so deep trees cannot exhaust the stack.
 */
function walkFolder(root: string, out: string[], failures: Failure[]): void {
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (error) {
    failures.push({ path: root, reason: reasonOf(error, root), kind: "unreadable" });
    return;
  }
  type Item = { file: string } | { folder: string; ancestors: ReadonlySet<string> };
  const visited = new Set<string>([rootReal]);
  const stack: Item[] = [{ folder: root, ancestors: new Set([rootReal]) }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ("file" in item) {
      out.push(item.file);
      continue;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(item.folder, { withFileTypes: true });
    } catch (error) {
      failures.push({ path: item.folder, reason: reasonOf(error, item.folder), kind: "unreadable" });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const children: Item[] = [];
    for (const entry of entries) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const path = joinDisplay(item.folder, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const st = statSync(path);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch (error) {
          // A broken link only matters when it names a file that would have been checked.
          if (isLwirFileName(entry.name)) failures.push({ path, reason: reasonOf(error, path), kind: "unreadable" });
          continue;
        }
      }
      if (isDir) {
        let real: string;
        try {
          real = realpathSync(path);
        } catch (error) {
          failures.push({ path, reason: reasonOf(error, path), kind: "unreadable" });
          continue;
        }
        if (item.ancestors.has(real)) {
          failures.push({ path, reason: "symbolic link loop (it leads back to a folder that contains it)", kind: "unreadable" });
          continue;
        }
        if (visited.has(real)) continue;
        visited.add(real);
        children.push({ folder: path, ancestors: new Set([...item.ancestors, real]) });
      } else if (isLwirFileName(entry.name)) {
        if (isFile) children.push({ file: path });
        else failures.push({ path, reason: "not a regular file", kind: "unreadable" });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}
