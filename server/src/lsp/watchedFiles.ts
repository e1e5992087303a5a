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
import { CONFIG_FILE_GLOB } from "../service/config";
import { LWIR_FILE_GLOB } from "../workspace/files";
import { ConfigFiles } from "./configFiles";
import type { ServerParts } from "./serverParts";
import type { WorkspaceScan } from "./workspaceScan";

/** The watchers for these settings: LWIR files by name, configuration files, the include globs, and deletions of anything (a deleted folder). */
export function watchersFor(include: readonly string[]): FileSystemWatcher[] {
  return [
    { globPattern: LWIR_FILE_GLOB },
    { globPattern: CONFIG_FILE_GLOB },
    ...include.map((glob): FileSystemWatcher => ({ globPattern: glob.startsWith("**/") ? glob : `**/${glob.replace(/^\.?\/+/, "")}` })),
    { globPattern: "**/*", kind: WatchKind.Delete },
  ];
}

export class WatchedFiles {
  private registration: Promise<Disposable> | undefined;
  private registeredFor = "";
  private readonly configListeners: Array<() => void> = [];

  constructor(private readonly parts: ServerParts, private readonly scan: WorkspaceScan) {}

  /** Called when a configuration file (.lwir.yaml / .lwir.json) is created, changed or deleted. */
  onConfigChange(listener: () => void): void {
    this.configListeners.push(listener);
  }

  listen(): void {
    const { connection, session } = this.parts;
    connection.onDidChangeWatchedFiles(session.notification("didChangeWatchedFiles", (params) => {
      const changes = Array.isArray(params?.changes) ? params.changes : [];
      // Once per batch (a checkout may touch several), before the files themselves are checked again.
      if (changes.some((change) => typeof change?.uri === "string" && ConfigFiles.isConfigUri(change.uri))) {
        for (const listener of this.configListeners) listener();
      }
      for (const change of changes) {
        if (typeof change?.uri !== "string" || ConfigFiles.isConfigUri(change.uri)) continue;
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
