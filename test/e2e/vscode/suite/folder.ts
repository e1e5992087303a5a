// The web runner's untrusted run opens a `vscode-vfs:` folder: on vscode.dev that scheme is how a GitHub
// repository opens, and it is the one virtual file system VS Code does not trust by default (it trusts all
// others, test-web's own `vscode-test-web:` mount included). test-web has no provider for it, so the suite
// serves the workspace files itself, in memory, from the texts prepare.mjs read: the same files the CLI
// checked. Writes stay in memory, as on the mount.
import * as vscode from "vscode";
import { E2E } from "./expected";

class MemoryFolder implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly started = Date.now();

  constructor(private readonly root: vscode.Uri, texts: Record<string, string>) {
    for (const [name, text] of Object.entries(texts)) this.files.set(name, { data: new TextEncoder().encode(text), mtime: this.started });
  }

  /** The file name under the root, "" for the root itself; throws FileNotFound elsewhere. */
  private nameOf(uri: vscode.Uri): string {
    const rootPath = this.root.path.replace(/\/$/, "");
    if (uri.authority === this.root.authority && (uri.path === rootPath || uri.path === `${rootPath}/`)) return "";
    if (uri.authority === this.root.authority && uri.path.startsWith(`${rootPath}/`)) {
      const name = uri.path.slice(rootPath.length + 1);
      if (!name.includes("/")) return name;
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const name = this.nameOf(uri);
    if (name === "") return { type: vscode.FileType.Directory, ctime: this.started, mtime: this.started, size: 0 };
    const f = this.files.get(name);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: this.started, mtime: f.mtime, size: f.data.byteLength };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    if (this.nameOf(uri) !== "") throw vscode.FileSystemError.FileNotADirectory(uri);
    return [...this.files.keys()].map((n) => [n, vscode.FileType.File]);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(this.nameOf(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const name = this.nameOf(uri);
    if (name === "") throw vscode.FileSystemError.FileIsADirectory(uri);
    const existed = this.files.has(name);
    this.files.set(name, { data: content, mtime: Date.now() });
    this.changed.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** Registers the provider for the folder the runner opened (E2E.serveFolder), if any. */
export function serveWorkspaceFolder(): vscode.Disposable | undefined {
  if (!E2E.serveFolder) return undefined;
  const root = vscode.Uri.parse(E2E.serveFolder);
  const texts = Object.fromEntries(Object.entries(E2E.files).map(([name, f]) => [name, f.text]));
  return vscode.workspace.registerFileSystemProvider(root.scheme, new MemoryFolder(root, texts), { isCaseSensitive: true });
}
