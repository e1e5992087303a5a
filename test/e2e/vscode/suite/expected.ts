// What the suite compares against, computed before the run by prepare.mjs (`lwir validate --format json`,
// canonicalJson) and baked into the bundle by esbuild's `define`: a web worker cannot spawn the CLI.

export interface CliPosition { line: number; character: number }
export interface CliRange { start: CliPosition; end: CliPosition }
export interface CliFinding { code: string; path: string; message: string; severity: string; range: CliRange }
export interface CliFile {
  file: string;
  format: "json" | "yaml";
  parseErrors: { message: string; range: CliRange }[];
  findings: CliFinding[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
}

export interface Mutation {
  name: string;
  file: string;
  /** Occurs exactly once in the file's text; the suite replaces it. */
  search: string;
  replacement: string;
  /** The CLI's report of the edited text. */
  report: CliFile;
}

export interface Expectations {
  /** By file name (the workspace folder is flat). */
  files: Record<string, { text: string; report: CliFile }>;
  mutations: Mutation[];
  /** canonicalJson() of the valid JSON files, by file name. */
  canonical: Record<string, string>;
  /** How the runner opened the workspace folder. */
  trust: "trusted" | "untrusted";
  /**
   * The web runner's untrusted run opens a `vscode-vfs:` folder (the scheme of GitHub repositories on
   * vscode.dev, the one virtual file system VS Code does not trust by default); nothing serves it in
   * test-web, so the suite does, from `files`. Undefined: the folder is served by the host.
   */
  serveFolder?: string;
}

declare const __LWIR_E2E__: Expectations;
export const E2E: Expectations = __LWIR_E2E__;

export function mutation(name: string): Mutation {
  const m = E2E.mutations.find((x) => x.name === name);
  if (!m) throw new Error(`no mutation "${name}" was prepared`);
  return m;
}
