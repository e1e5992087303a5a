// The configuration files (.lwir.yaml / .lwir.json, service/config.ts) as the server finds them: the
// nearest one above each document, read from where the workspace scan reads files (the disk in Node, the
// client otherwise), once per folder until a watched-file event says one changed. Its rule levels apply
// over the editor's settings; a file its `ignore` names gets no diagnostics. An open configuration file gets
// its own problems as diagnostics; one that cannot be used applies nothing (the settings do).
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import { formatOf } from "../document/document";
import { CONFIG_FILE_NAMES, isConfigFileName, mergeRules, parentOf, parseConfig, type LwirConfig } from "../service/config";
import type { RuleLevel } from "../service/rules";
import { fileNameOf } from "../service/workspace";
import type { WorkspaceFileSource } from "../workspace/files";
import { relativePathIn } from "../workspace/files";
import { GlobSet } from "../workspace/glob";
import type { ServerParts } from "./serverParts";

/** Configuration files are small; anything larger is not one. */
const MAX_CONFIG_SIZE = 1024 * 1024;

export interface FoundConfig {
  /** The configuration file's URI, and its folder's (`ignore` and `include` are relative to it). */
  uri: string;
  folderUri: string;
  config: LwirConfig;
  ignore: GlobSet;
}

export class ConfigFiles {
  /** By folder URI: the configuration that applies there, once looked up. */
  private readonly byFolder = new Map<string, Promise<FoundConfig | undefined>>();
  /** The same, once settled, for the synchronous paths (diagnostics of an open document). */
  private readonly settled = new Map<string, FoundConfig | undefined>();

  constructor(private readonly parts: ServerParts, private readonly sources: () => readonly WorkspaceFileSource[]) {}

  static isConfigUri(uri: string): boolean {
    return isConfigFileName(fileNameOf(uri));
  }

  /** The configuration that applies to the document at `uri`. Never rejects. */
  forUri(uri: string): Promise<FoundConfig | undefined> {
    return this.forFolder(parentOf(uri));
  }

  /** Is the configuration of `uri` known already (so `rulesFor` and `ignores` answer without waiting)? */
  known(uri: string): boolean {
    return this.settled.has(parentOf(uri));
  }

  /** The rule levels for the document: the editor's settings, then its configuration file's code by code. */
  rulesFor(uri: string): Readonly<Record<string, RuleLevel>> {
    return mergeRules(this.parts.settings.current.lint.rules, this.settled.get(parentOf(uri))?.config.rules);
  }

  /** Does the configuration that applies to `uri` leave it out (`ignore`)? */
  ignores(uri: string, found = this.settled.get(parentOf(uri))): boolean {
    if (!found) return false;
    const relative = relativePathIn(found.folderUri, uri);
    return relative !== undefined && found.ignore.matches(relative);
  }

  /** A configuration file changed, appeared or went away: everything is looked up again. */
  invalidate(): void {
    this.byFolder.clear();
    this.settled.clear();
  }

  /** The problems of an open configuration file, as diagnostics. */
  diagnosticsOf(uri: string, text: string): Diagnostic[] {
    const result = parseConfig(text.replace(/^\uFEFF/, ""), formatOf(fileNameOf(uri)) ?? "yaml");
    if (result.ok) return [];
    return result.problems.map((p) => ({ range: p.range, message: p.message, severity: DiagnosticSeverity.Error, source: "lwir" }));
  }

  private forFolder(folderUri: string): Promise<FoundConfig | undefined> {
    let pending = this.byFolder.get(folderUri);
    if (!pending) {
      pending = this.lookUp(folderUri).catch((error: unknown) => {
        this.parts.session.logError(`reading the configuration for ${folderUri}`, error);
        return undefined;
      });
      this.byFolder.set(folderUri, pending);
      void pending.then((found) => {
        if (this.byFolder.get(folderUri) === pending) this.settled.set(folderUri, found);
      });
    }
    return pending;
  }

  private async lookUp(folderUri: string): Promise<FoundConfig | undefined> {
    const here = await this.readIn(folderUri);
    if (here !== undefined) return here ?? undefined;
    const parent = parentOf(folderUri);
    // Up to the root of the URI's path (`file://` is the root folder: its file is file:///.lwir.yaml).
    if (!parent.includes("://") || parent.length >= folderUri.length || folderUri.endsWith("://")) return undefined;
    return this.forFolder(parent);
  }

  /** The configuration file in the folder: found, null when the one there cannot be used, undefined when there is none. */
  private async readIn(folderUri: string): Promise<FoundConfig | null | undefined> {
    const source = this.sources().find((s) => s.handles(folderUri));
    for (const name of CONFIG_FILE_NAMES) {
      const uri = `${folderUri}/${name}`;
      const content = source ? await source.read(uri, MAX_CONFIG_SIZE) : { kind: "missing" as const };
      if (content.kind === "missing" || (content.kind === "unreadable" && content.reason === "is a folder")) continue;
      if (content.kind !== "text") {
        this.parts.session.log(`lwir: ${uri} is not used: ${content.kind === "tooLarge" ? "too large" : content.reason}`);
        return null;
      }
      const result = parseConfig(content.text.replace(/^\uFEFF/, ""), formatOf(name) ?? "yaml");
      if (!result.ok) {
        // Its problems are shown on the file itself when it is open; the settings apply meanwhile.
        this.parts.session.log(`lwir: ${uri} is not used, it has ${result.problems.length} ${result.problems.length === 1 ? "problem" : "problems"}: ${result.problems[0].message}`);
        return null;
      }
      return { uri, folderUri, config: result.config, ignore: new GlobSet(result.config.ignore) };
    }
    return undefined;
  }
}
