// Following the disk: `workspace/didChangeWatchedFiles`, registered dynamically where the client allows it
// (else the client's own file-event configuration decides what it sends). Created and changed files are
// checked again, deleted ones (and everything below a deleted folder) cleared; a rename arrives as a
// delete and a create. Events about open documents are left alone: the editor's text wins, and the disk
// text is read again when the document closes (workspaceScan.ts).
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  WatchKind,
  type Disposable,
  type FileSystemWatcher,
} from "vscode-languageserver";
import { LWIR_FILE_GLOB } from "../workspace/files";
import type { ServerParts } from "./serverParts";
import type { WorkspaceScan } from "./workspaceScan";

/** The watchers for these settings: LWIR files by name, the include globs, and deletions of anything (a deleted folder). */
export function watchersFor(include: readonly string[]): FileSystemWatcher[] {
  return [
    { globPattern: LWIR_FILE_GLOB },
    ...include.map((glob): FileSystemWatcher => ({ globPattern: glob.startsWith("**/") ? glob : `**/${glob.replace(/^\.?\/+/, "")}` })),
    { globPattern: "**/*", kind: WatchKind.Delete },
  ];
}

export class WatchedFiles {
  private registration: Promise<Disposable> | undefined;
  private registeredFor = "";

  constructor(private readonly parts: ServerParts, private readonly scan: WorkspaceScan) {}

  listen(): void {
    const { connection, session } = this.parts;
    connection.onDidChangeWatchedFiles(session.notification("didChangeWatchedFiles", (params) => {
      for (const change of Array.isArray(params?.changes) ? params.changes : []) {
        if (typeof change?.uri !== "string") continue;
        if (change.type === FileChangeType.Deleted) this.scan.fileDeleted(change.uri);
        else if (change.type === FileChangeType.Created || change.type === FileChangeType.Changed) this.scan.fileChanged(change.uri);
      }
    }));
  }

  /** Registers (again, when the include globs changed) the watchers; nothing to do when the scope leaves the disk alone. */
  async update(): Promise<void> {
    const { connection, settings, session } = this.parts;
    if (!this.parts.client().watchedFilesRegistration) return;
    const { validation, files } = settings.current;
    const wanted = validation.enable && validation.scope === "workspace" ? JSON.stringify(files.include) : "";
    if (wanted === this.registeredFor) return;
    this.registeredFor = wanted;
    const previous = this.registration;
    this.registration = undefined;
    try {
      if (previous) (await previous).dispose();
      if (wanted === "") return;
      this.registration = connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: watchersFor(files.include) });
      await this.registration;
    } catch (error) {
      session.logError("registering file watchers", error);
    }
  }
}
