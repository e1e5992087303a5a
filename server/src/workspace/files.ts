// Which files of a workspace folder the language server checks without their being open, and where it
// reads them from. Pure: the Node file source (nodeFileSource.ts) and the client's (lsp/clientFileSource.ts)
// implement WorkspaceFileSource; the decisions are here.
import type { FileContent } from "../protocol";
import { isConfigFileName } from "../service/config";
import { isScenariosFileName } from "../run/scenarios";
import { GlobSet } from "./glob";

/** Picked up by name, as the CLI does in folders. */
export const LWIR_FILE_GLOB = "**/*.lwir.{json,yaml,yml}";
const LWIR_FILE_NAME = /\.lwir\.(json|ya?ml)$/i;
/** Emacs' lock file of an edited file (`.#flow.lwir.yaml`, a dangling symbolic link): not a workflow. */
const EDITOR_LOCK_FILE = /^\.#/;
/** Never searched: dependencies and version-control data are not the user's workflows. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

export type { FileContent };

export interface WorkspaceFileSource {
  /** Can this source reach the files of this folder (its URI scheme)? */
  handles(folderUri: string): boolean;
  /**
   * The URIs of the candidate files under a workspace folder (`filter.takesFile`), skipping folders the
   * filter skips, at most `limit` of them. Stops early (returning what it has) when `stopped()` says so.
   */
  list(folderUri: string, filter: FileFilter, limit: number, stopped: () => boolean): Promise<string[]>;
  /** Reads one file; `maxSize` in bytes (larger files are not read). Never rejects. */
  read(uri: string, maxSize: number): Promise<FileContent>;
}

export interface FilterSettings {
  /** `lwir.files.include`: more globs of files to look at (they still have to be LWIR, by name or apiVersion). */
  include: readonly string[];
  /** `lwir.files.exclude`. */
  exclude: readonly string[];
  /** The editor's `files.exclude`. */
  editorExclude: readonly string[];
}

/** Decides, from paths relative to a workspace folder, what the scan looks at. */
export class FileFilter {
  private readonly include: GlobSet;
  private readonly exclude: GlobSet;

  constructor(settings: FilterSettings) {
    this.include = new GlobSet(settings.include);
    this.exclude = new GlobSet([...settings.exclude, ...settings.editorExclude]);
  }

  /** Is the folder at this relative path left out (with everything below it)? */
  skipsFolder(relativePath: string): boolean {
    const name = relativePath.slice(relativePath.lastIndexOf("/") + 1);
    return SKIPPED_FOLDERS.has(name) || this.exclude.matches(relativePath);
  }

  /** Is the file at this relative path looked at (its folders not considered: see `takesPath`)? */
  takesFile(relativePath: string): boolean {
    const name = relativePath.slice(relativePath.lastIndexOf("/") + 1);
    // Scenarios files (NAME.lwir.test.yaml) are not workflows, whatever lwir.files.include says.
    if (EDITOR_LOCK_FILE.test(name) || isConfigFileName(name) || isScenariosFileName(name)) return false;
    if (!LWIR_FILE_NAME.test(name) && !this.include.matches(relativePath)) return false;
    return !this.exclude.matches(relativePath);
  }

  /** `takesFile`, and none of its folders skipped: for paths that come one by one (watched-file events, a client's file search). */
  takesPath(relativePath: string): boolean {
    if (!this.takesFile(relativePath)) return false;
    const segments = relativePath.split("/");
    for (let i = 1; i < segments.length; i++) if (this.skipsFolder(segments.slice(0, i).join("/"))) return false;
    return true;
  }
}

/** The path of `uri` relative to the folder `folderUri`, or undefined when it is not inside it. */
export function relativePathIn(folderUri: string, uri: string): string | undefined {
  const base = folderUri.endsWith("/") ? folderUri : `${folderUri}/`;
  if (!uri.startsWith(base)) return undefined;
  const rest = uri.slice(base.length).replace(/[?#].*$/s, "");
  try {
    return rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return rest;
  }
}

/** The URI of a child entry, encoded the way editors write file URIs. */
export function childUri(folderUri: string, name: string): string {
  return `${folderUri.endsWith("/") ? folderUri.slice(0, -1) : folderUri}/${encodeURIComponent(name)}`;
}

/** Is `uri` the folder `folderUri` itself or below it? */
export function isAtOrBelow(folderUri: string, uri: string): boolean {
  const base = folderUri.endsWith("/") ? folderUri.slice(0, -1) : folderUri;
  return uri === base || uri.startsWith(`${base}/`);
}

/** "1,000": counts in progress messages. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The URI of `relativePath` (slash-separated, `..` allowed, never above the root) taken from the folder of
 * the file `fileUri`: where a scenarios file's `workflow: ../flows/x.lwir.yaml` points.
 */
export function uriBeside(fileUri: string, relativePath: string): string {
  const bare = fileUri.replace(/[?#].*$/s, "");
  const m = /^([a-z][\w+.-]*:\/\/[^/]*)(.*)$/is.exec(bare);
  const prefix = m ? m[1] : "";
  const parts = (m ? m[2] : bare).split("/").slice(0, -1);
  for (const segment of relativePath.replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length > 1) parts.pop();
      continue;
    }
    parts.push(encodeURIComponent(segment));
  }
  return prefix + parts.join("/");
}
