// The workspace's files on a real disk (the Node server, `file:` workspace folders): found with an
// asynchronous walk with node:fs, so the server keeps answering while it walks; files read as they are checked.
import { promises as fs, readFileSync, statSync, type Dirent } from "node:fs";
import { fileURLToPath } from "node:url";
import { decodeSource } from "../document/decode";
import { childUri, type FileContent, type FileFilter, type WorkspaceFileSource } from "./files";

/** Files up to this size are read synchronously (well under a millisecond from a local disk). */
const SYNC_READ_MAX = 256 * 1024;

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "symbolic link loop",
  EISDIR: "is a folder",
  ENAMETOOLONG: "name too long",
};

export class NodeFileSource implements WorkspaceFileSource {
  /** Only `file:` folders are on this disk. */
  handles(folderUri: string): boolean {
    return folderUri.startsWith("file:");
  }

  /**
   * Depth-first, iterative (deep trees cannot exhaust the stack). A folder link is followed once: its real
   * path is remembered, so a link back to an ancestor (a loop) or a second link to the same folder is
   * not walked again. Files are listed whatever their type; `read` says why one cannot be read.
   */
  async list(folderUri: string, filter: FileFilter, limit: number, stopped: () => boolean): Promise<string[]> {
    const out: string[] = [];
    let rootPath: string;
    try {
      rootPath = fileURLToPath(folderUri);
      const real = await fs.realpath(rootPath);
      const visited = new Set<string>([real]);
      const stack: Array<{ path: string; uri: string; relative: string }> = [{ path: rootPath, uri: folderUri, relative: "" }];
      while (stack.length > 0 && out.length < limit && !stopped()) {
        const folder = stack.pop()!;
        let entries: Dirent[];
        try {
          entries = await fs.readdir(folder.path, { withFileTypes: true });
        } catch {
          continue; // a folder we cannot list holds nothing we can check
        }
        entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)); // popped in name order
        for (const entry of entries) {
          const relative = folder.relative === "" ? entry.name : `${folder.relative}/${entry.name}`;
          const path = `${folder.path}/${entry.name}`;
          const uri = childUri(folder.uri, entry.name);
          let isDir = entry.isDirectory();
          if (entry.isSymbolicLink()) {
            try {
              isDir = (await fs.stat(path)).isDirectory();
            } catch {
              isDir = false; // dangling or a loop: listed if its name counts, `read` says which
            }
          }
          if (isDir) {
            if (filter.skipsFolder(relative)) continue;
            let realDir: string;
            try {
              realDir = await fs.realpath(path);
            } catch {
              continue;
            }
            if (visited.has(realDir)) continue;
            visited.add(realDir);
            stack.push({ path, uri, relative });
          } else if (filter.takesFile(relative)) {
            out.push(uri);
            if (out.length >= limit) break;
          }
        }
      }
    } catch {
      // The folder itself is gone or unreadable: nothing to check.
    }
    return out;
  }

  async read(uri: string, maxSize: number): Promise<FileContent> {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return { kind: "missing" };
    }
    try {
      // Stat and (when small) read at once: the file's analysis, right after, holds the thread longer than
      // they do, while each asynchronous step (stat, open, fstat, read, close) waits its turn in libuv's
      // thread pool, which was most of a scan's idle time. Large files are read without blocking.
      const st = statSync(path);
      // A FIFO or a device would block the read, or never end: only regular files are read.
      if (!st.isFile()) return { kind: "unreadable", reason: st.isDirectory() ? "is a folder" : "not a regular file" };
      if (st.size > maxSize) return { kind: "tooLarge", size: st.size };
      if (st.size <= SYNC_READ_MAX) {
        // As the CLI reads a file (cli/check.ts): straight into a string, in one call and without a Buffer.
        // Text with no U+FFFD and no NUL is exactly what decodeSource makes of the same bytes (a UTF-16 byte
        // order mark and invalid UTF-8 come out as U+FFFD); anything else takes the byte path below.
        const text = readFileSync(path, "utf8");
        if (!text.includes("\uFFFD") && !text.includes("\0")) return { kind: "text", text };
      }
      const bytes = st.size <= SYNC_READ_MAX ? readFileSync(path) : await fs.readFile(path);
      // A folder scan: binary files are skipped (reported unreadable); other bytes are read as the runtime reads them.
      const decoded = decodeSource(bytes, "skip");
      if (!decoded.ok) return { kind: "unreadable", reason: decoded.reason };
      return decoded.invalidUtf8.length > 0 ? { kind: "text", text: decoded.text, invalidUtf8: decoded.invalidUtf8 } : { kind: "text", text: decoded.text };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        // A link whose target is gone is still there to be reported; a file that is gone is not.
        try {
          if ((await fs.lstat(path)).isSymbolicLink()) return { kind: "unreadable", reason: "dangling symbolic link" };
        } catch {
          // gone
        }
        return { kind: "missing" };
      }
      return { kind: "unreadable", reason: typeof code === "string" && REASONS[code] ? REASONS[code] : error instanceof Error ? error.message : String(error) };
    }
  }
}
