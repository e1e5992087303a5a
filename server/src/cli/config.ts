// The configuration file for the CLI: the nearest `.lwir.yaml` or `.lwir.json` above each file (its own
// folder first, then each parent up to the file system's root), read once per folder. What it says is
// service/config.ts; this is where it is found on disk.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { decodeSource } from "../document/decode";
import { formatOf } from "../document/document";
import { CONFIG_FILE_NAMES, parseConfig, type LwirConfig } from "../service/config";
import { GlobSet } from "../workspace/glob";

export interface FoundConfig {
  /** The file, as a path the user can open (relative to the working folder when below it). */
  file: string;
  /** Its folder, absolute: `ignore` and `include` are relative to it. */
  folder: string;
  config: LwirConfig;
  ignore: GlobSet;
  include: GlobSet;
}

/** A configuration file that cannot be used: each problem as `FILE:LINE:COL: message`. */
export interface ConfigError {
  file: string;
  lines: string[];
}

export class ConfigLookup {
  /** By absolute folder: the configuration that applies there (undefined: none). */
  private readonly byFolder = new Map<string, FoundConfig | undefined>();
  readonly errors: ConfigError[] = [];
  private readonly failed = new Set<string>();

  constructor(private readonly cwd: string = process.cwd()) {}

  /** The configuration that applies to the file at `path` (relative to the working folder or absolute). */
  forFile(path: string): FoundConfig | undefined {
    return this.forFolder(dirname(resolve(this.cwd, path)));
  }

  /** The configuration that applies in the folder `folder` (absolute). */
  forFolder(folder: string): FoundConfig | undefined {
    const pending: string[] = [];
    let found: FoundConfig | undefined;
    let at = folder;
    for (;;) {
      if (this.byFolder.has(at)) {
        found = this.byFolder.get(at);
        break;
      }
      pending.push(at);
      const here = this.readIn(at);
      if (here !== undefined) {
        found = here ?? undefined;
        break;
      }
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
    }
    for (const f of pending) this.byFolder.set(f, found);
    return found;
  }

  /** Is the file ignored by the `ignore` of the configuration that applies to it? */
  ignores(path: string, config = this.forFile(path)): boolean {
    return config !== undefined && config.ignore.matches(relativeTo(config.folder, resolve(this.cwd, path)));
  }

  /**
   * The configuration file in this folder: a FoundConfig, null when there is one that cannot be used
   * (recorded in `errors`, and no configuration applies), undefined when the folder has none.
   */
  private readIn(folder: string): FoundConfig | null | undefined {
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(folder, name);
      try {
        if (!statSync(path).isFile()) continue;
      } catch {
        continue;
      }
      const shown = relative(this.cwd, path);
      const file = shown === "" || shown.startsWith("..") ? path : shown;
      const fail = (lines: string[]): null => {
        if (!this.failed.has(path)) this.errors.push({ file, lines });
        this.failed.add(path);
        return null;
      };
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        return fail([`${file}: cannot read the configuration: ${error instanceof Error ? error.message : String(error)}`]);
      }
      const decoded = decodeSource(bytes);
      if (!decoded.ok) return fail([`${file}: cannot read the configuration: ${decoded.reason}`]);
      const result = parseConfig(decoded.text.replace(/^\uFEFF/, ""), formatOf(name) ?? "yaml");
      if (!result.ok) {
        return fail(result.problems.map((p) => `${file}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message}`));
      }
      return { file, folder, config: result.config, ignore: new GlobSet(result.config.ignore), include: new GlobSet(result.config.include) };
    }
    return undefined;
  }
}

/** `/`-separated path of `path` below `folder` (both absolute). */
export function relativeTo(folder: string, path: string): string {
  const rel = relative(folder, path);
  return sep === "/" ? rel : rel.split(sep).join("/");
}
