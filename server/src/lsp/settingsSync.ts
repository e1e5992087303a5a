// The `lwir.*` settings as the server holds them: from initializationOptions at start, then asked of the
// client (`workspace/configuration`) when it can answer, else taken from `didChangeConfiguration`. A
// change bumps a generation (pull result ids from before it no longer match) and is announced, so the
// diagnostics are recomputed.
import { DidChangeConfigurationNotification, type Connection } from "vscode-languageserver";
import { SETTINGS_SECTION } from "../protocol";
import { DEFAULT_SETTINGS, readSettings, type LwirSettings } from "../service/settings";
import type { ClientSupport } from "./clientSupport";
import type { Session } from "./requestGuards";

export class SettingsSync {
  current: LwirSettings = DEFAULT_SETTINGS;
  /** Bumped whenever settings change, so pull result ids from before the change no longer match. */
  generation = 0;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly connection: Connection, private readonly client: () => ClientSupport) {}

  /** From `initialize`: `initializationOptions.settings`, or the options themselves. */
  initialize(initializationOptions: unknown): void {
    const options = initializationOptions as { settings?: unknown } | null | undefined;
    this.current = readSettings(options?.settings ?? options);
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
        await this.connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
      }
      await this.refresh(undefined);
    }));
    this.connection.onDidChangeConfiguration(session.notification("didChangeConfiguration", (params) => this.refresh(params.settings)));
  }

  /** Re-reads settings (asking the client when it can answer, else from the notification). */
  private async refresh(pushed: unknown): Promise<void> {
    let next = this.current;
    if (this.client().configurationRequests) {
      const fetched: unknown = await this.connection.workspace.getConfiguration({ section: SETTINGS_SECTION });
      next = readSettings(fetched, this.current);
    } else if (pushed !== undefined) {
      next = readSettings(pushed, this.current);
    }
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.generation++;
    for (const listener of this.listeners) listener();
  }
}
