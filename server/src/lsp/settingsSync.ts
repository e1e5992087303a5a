// The `lwir.*` settings as the server holds them: from initializationOptions at start, then asked of the
// client (`workspace/configuration`) when it can answer, else taken from `didChangeConfiguration`. A
// change bumps a generation (pull result ids from before it no longer match) and is announced, so the
// diagnostics are recomputed.
import { DidChangeConfigurationNotification, type Connection } from "vscode-languageserver";
import { SETTINGS_SECTION } from "../protocol";
import { DEFAULT_SETTINGS, readSettings, scopeGiven, type LwirSettings } from "../service/settings";
import { excludeGlobs } from "../workspace/glob";
import type { ClientSupport } from "./clientSupport";
import type { Session } from "./requestGuards";

export class SettingsSync {
  current: LwirSettings = DEFAULT_SETTINGS;
  /** The client has named `lwir.validation.scope` (the workspace scan of a push-only client waits for it). */
  scopeExplicit = false;
  /** The editor's `files.exclude` globs (the workspace scan honours them too). */
  editorExclude: readonly string[] = [];
  /** Settles once the settings have been asked of the client after `initialized` (the workspace scan waits for it). */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  /** Bumped whenever settings change, so pull result ids from before the change no longer match. */
  generation = 0;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly connection: Connection, private readonly client: () => ClientSupport) {
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
  }

  /** From `initialize`: `initializationOptions.settings` (or the options themselves) and `filesExclude`. */
  initialize(initializationOptions: unknown): void {
    const options = initializationOptions as { settings?: unknown; filesExclude?: unknown } | null | undefined;
    this.current = readSettings(options?.settings ?? options);
    this.scopeExplicit = scopeGiven(options?.settings ?? options);
    this.editorExclude = excludeGlobs(options?.filesExclude);
  }

  /** Called after each change of the settings. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Registers for changes once the session is initialized, and follows them. */
  listen(session: Session): void {
    this.connection.onInitialized(session.notification("initialized", async () => {
      const client = this.client();
      if (client.configurationRequests && client.dynamicConfigurationRegistration) {
        await this.connection.client.register(DidChangeConfigurationNotification.type, { section: [SETTINGS_SECTION, "files.exclude"] });
      }
      try {
        await this.refresh(undefined);
      } finally {
        this.markReady();
      }
    }));
    this.connection.onDidChangeConfiguration(session.notification("didChangeConfiguration", (params) => this.refresh(params.settings)));
  }

  /** Re-reads settings (asking the client when it can answer, else from the notification). */
  private async refresh(pushed: unknown): Promise<void> {
    let next = this.current;
    let nextExclude = this.editorExclude;
    let explicit = this.scopeExplicit;
    if (this.client().configurationRequests) {
      const [fetched, filesExclude] = await this.connection.workspace.getConfiguration([{ section: SETTINGS_SECTION }, { section: "files.exclude" }]) as unknown[];
      next = readSettings(fetched, this.current);
      explicit ||= scopeGiven(fetched);
      if (filesExclude !== null && filesExclude !== undefined) nextExclude = excludeGlobs(filesExclude);
    } else if (pushed !== undefined) {
      next = readSettings(pushed, this.current);
      explicit ||= scopeGiven(pushed);
      const files = (pushed as { files?: { exclude?: unknown } } | null)?.files;
      if (files?.exclude !== undefined) nextExclude = excludeGlobs(files.exclude);
    }
    if (JSON.stringify(next) === JSON.stringify(this.current) && JSON.stringify(nextExclude) === JSON.stringify(this.editorExclude) && explicit === this.scopeExplicit) return;
    this.current = next;
    this.scopeExplicit = explicit;
    this.editorExclude = nextExclude;
    this.generation++;
    for (const listener of this.listeners) listener();
  }
}
