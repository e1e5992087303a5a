// What the LWIR language server and the VS Code extension agree on beyond LSP itself: the settings
// section, the lwir/workflowVersion request and its types, the command ids the server's code lenses run,
// and the kind of the fix-all source action. Both sides import this file, so a name changes in one
// place; package.json repeats the command ids and the context key (test/unit/outline.test.ts compares).
// Plain data only: the client's bundles import it too (the graph types are type-only imports).
import type { GraphLayout } from "./graph/layout";
import type { WorkflowGraph } from "./graph/model";
import type { DryRunReport } from "./run/overlay";

/** The configuration section of our settings (`lwir.validation.enable`, …): the server asks for it, the client syncs it. */
export const SETTINGS_SECTION = "lwir";

/** The `source` of our diagnostics. */
export const DIAGNOSTIC_SOURCE = "lwir";
/** Code of syntax errors (JSON or YAML): the document did not parse, so nothing was validated. */
export const PARSE_CODE = "parse";

/** Custom request: `WorkflowVersionParams` → `WorkflowVersionResult | null` (null: not an open LWIR document). */
export const WORKFLOW_VERSION_REQUEST = "lwir/workflowVersion";

export interface WorkflowVersionParams {
  uri: string;
  /** Also return the canonical JSON text (it can be large, so only on request). */
  canonicalJson?: boolean;
}

export interface WorkflowVersionResult {
  uri: string;
  /** The document parses and has no findings. */
  valid: boolean;
  /** `wfver_` + 16 hex digits; null unless valid. */
  id: string | null;
  /** `sha256:` + 64 hex digits; null unless valid. */
  hash: string | null;
  /** Syntax errors plus findings (0 when valid). */
  problems: number;
  /** How many of `problems` are syntax errors (then there are no findings: nothing was validated); absent when none. */
  syntaxErrors?: number;
  /** The document is above `lwir.maxFileSize`, so it was not analysed. */
  tooLarge?: boolean;
  /**
   * The document is empty (white space, or YAML comments): not a problem but where a new workflow gets
   * written (the editor shows an info notice, not the findings of an empty value); `problems` is 0.
   */
  empty?: true;
  /** The version of the open document this answer is for (absent for a file that is not open). */
  version?: number;
  /** When asked for: the canonical JSON the hash is taken of (catalog 6.1); absent when the value has none (it does not parse, or is not hashable). */
  canonicalJson?: string;
}

/** Client command the code lens of a valid document runs, with `CopyWorkflowVersionArgs`. */
export const COPY_WORKFLOW_VERSION_COMMAND = "lwir.copyWorkflowVersionId";

export interface CopyWorkflowVersionArgs {
  uri: string;
  id: string;
}

/** Client command that opens the canonical JSON of a document (argument: its URI). */
export const SHOW_CANONICAL_JSON_COMMAND = "lwir.showCanonicalJson";

/** "LWIR: Fix all in file": applies the document's `source.fixAll.lwir` action (FIX_ALL_KIND) as one edit. */
export const FIX_ALL_IN_FILE_COMMAND = "lwir.fixAllInFile";

/** "LWIR: Restart server": stops the language server and starts it again. */
export const RESTART_SERVER_COMMAND = "lwir.restartServer";

/** "LWIR: Show output": the LWIR output channel (the server's log and, with lwir.trace.server, its traffic). */
export const SHOW_OUTPUT_COMMAND = "lwir.showOutput";
/** VS Code's own command that opens the Problems panel (what the lens of an invalid document runs). */
export const SHOW_PROBLEMS_COMMAND = "workbench.actions.view.problems";
/** Context key for package.json's `when` clauses: the active editor holds an LWIR document. */
export const ACTIVE_LWIR_CONTEXT = "lwir.activeEditorIsLwir";

/** The kind of the fix-all source action: LSP's `source.fixAll`, narrowed to ours. */
export const FIX_ALL_KIND = "source.fixAll.lwir";

// ---- the workspace scan without a disk (the browser build, virtual workspaces) --------------------
// The server asks the extension to find and read the files of a workspace folder it cannot reach
// itself (server/src/lsp/clientFileSource.ts ↔ client/src/workspaceFiles.ts). A client that answers
// these requests says so with `initializationOptions.workspaceFiles: true`.

/** Request server → client: `FindFilesParams` → the URIs of the files found. */
export const FIND_FILES_REQUEST = "lwir/findFiles";

export interface FindFilesParams {
  /** The workspace folder searched. */
  folderUri: string;
  /** Globs relative to the folder (`**` + `/*.lwir.{json,yaml,yml}`, and the user's `lwir.files.include`). */
  include: string[];
  /** At most this many URIs. */
  maxResults: number;
}

/** Request server → client: `ReadFileParams` → `FileContent`. */
export const READ_FILE_REQUEST = "lwir/readFile";

export interface ReadFileParams {
  uri: string;
  /** Files larger than this many bytes are not read (`{kind: "tooLarge", size}`). */
  maxSize: number;
}

/** One file's content as it was read. */
export type FileContent =
  /** The text as the runtime reads the bytes (every BOM kept); `invalidUtf8`: where U+FFFD replaced bytes (document/decode.ts). */
  | { kind: "text"; text: string; invalidUtf8?: Array<{ offset: number; bytes: number[] }> }
  /** Above the size limit: not read. */
  | { kind: "tooLarge"; size: number }
  /** There but not readable as text: binary, not UTF-8, a FIFO, a dangling link, a link loop, denied… */
  | { kind: "unreadable"; reason: string }
  /** Gone (deleted meanwhile). */
  | { kind: "missing" };

/** Custom request of the graph view: `GraphParams` → `GraphResult | null` (null: not an open LWIR document, or too large). */
export const GRAPH_REQUEST = "lwir/graph";

export interface GraphParams {
  uri: string;
  /** Also return the graph as Mermaid flowchart text ("Copy as Mermaid"). */
  mermaid?: boolean;
  /**
   * An answer at once is welcome: when only edges changed since the last layout, the answer keeps that
   * layout's nodes and marks itself `provisional`; ask again (without this) for the new layout.
   */
  provisional?: boolean;
}

/** A position and range as LSP has them (line and UTF-16 character, 0-based). */
export interface GraphPosition { line: number; character: number }
export interface GraphTextRange { start: GraphPosition; end: GraphPosition }

export interface GraphResult {
  uri: string;
  /** The document version this answer was computed from. */
  version: number;
  /** The current version parses; when false, `graph` and `layout` are the last version that did (or empty). */
  parseOk: boolean;
  /** Why the current version does not parse: its first syntax error. */
  error?: { message: string; range: GraphTextRange };
  /** server/src/graph/model.ts's WorkflowGraph (steps carry `range`: the whole step object). */
  graph: WorkflowGraph;
  /** server/src/graph/layout.ts's GraphLayout of `graph`. */
  layout: GraphLayout;
  /** A short hash of graphShapeKey(graph) (of a provisional answer: marked as such): equal keys, equal layout. */
  shapeKey: string;
  /** True when this answer computed a new layout (false: the shape was unchanged and the last one was reused). */
  laidOut: boolean;
  /** `layout` is the last layout with this graph's edges drawn on it (GraphParams.provisional); the new one follows. */
  provisional?: boolean;
  /** Node id → range of the step's `id` value (what "reveal in editor" selects); steps without one use `range`. */
  selections: Record<string, GraphTextRange>;
  /** When asked for: the graph as a Mermaid flowchart. */
  mermaid?: string;
}

// ---- editing from the graph (docs/graph-view.md#editing-from-the-graph; server/src/service/graphEdits.ts) ----

/**
 * Custom request: `GraphEditParams` → a `WorkspaceEdit` of the document (text edits that keep the rest of
 * the text, formatting and comments as they are), or a `RequestFailed` error whose message says why the
 * action is refused and whose `data` is a `GraphEditRefusal`. Step ids are node ids as `lwir/graph` has
 * them: the step's id at the top level, `parallel.child` in a parallel body.
 */
export const GRAPH_EDIT_REQUEST = "lwir/graphEdit";

export interface GraphEditParams {
  textDocument: { uri: string };
  action: GraphEditAction;
}

export type GraphEditAction =
  /**
   * `to` needs `from`. From a decision: a new case routing to `to` (its `when` a placeholder to edit), or
   * its `default`; `as` chooses when both fit (the decision has no default yet). An edge closing a loop is
   * refused unless a decision is on the loop; then it is offered (a `loop` refusal) until `acceptLoop` is
   * true, and the loop's steps get the `maxVisits` it needs.
   */
  | { kind: "connect"; from: string; to: string; as?: "case" | "default"; acceptLoop?: boolean }
  /** Removes the needs entry (every copy; an emptied `needs` goes too) or the decision's case or default; `edge` chooses when several join the two steps. */
  | { kind: "disconnect"; from: string; to: string; edge?: "needs" | "default" | number }
  /** A new step of that type (with a fresh id) after step `after` in the text and needing it, else at the end of `steps` or of parallel step `parent`'s body. */
  | { kind: "addStep"; uses: string; after?: string; parent?: string }
  /** Removes the step; when others refer to it, `references` says whether their needs entries and decision routes go too ("remove") or stay ("keep"). */
  | { kind: "deleteStep"; id: string; references?: "remove" | "keep" }
  /** Moves the decision's case at index `from` to index `to` of `with.cases`. */
  | { kind: "moveCase"; step: string; from: number; to: number };

/** Where another step refers to a step (deleteStep's refusal lists them). */
export interface GraphEditReferrer {
  /** The referring step's node id. */
  step: string;
  kind: "needs" | "case" | "default" | "outputStep" | "expression";
  /** The path of the string that refers, as findings write paths, e.g. `$.steps[2].needs[0]`. */
  path: string;
}

/** The `data` of a refused action: why, in a form a UI can act on. */
export type GraphEditRefusal =
  /** Something named is not there, or the document cannot be edited that way (the message says which). */
  | { reason: "invalid" }
  /** The edge would close a loop no decision can leave: its steps in order. */
  | { reason: "cycle"; cycle: string[] }
  /** Connect from a decision with no default, or disconnect where several edges join the two: send again with `as` / `edge`. */
  | { reason: "ambiguous"; choices: Array<"case" | "default" | "needs" | number> }
  /**
   * Connect closing a valid loop (a decision on it), without `acceptLoop: true`: the loop's node ids from
   * the target round to the source, the maxVisits it needs, and the steps that would get it (none when
   * every step allows enough visits already). Send again with `acceptLoop: true` to apply.
   */
  | { reason: "loop"; loop: string[]; maxVisits: number; steps: string[] }
  /** deleteStep of a step others refer to, without `references`. */
  | { reason: "referenced"; referrers: GraphEditReferrer[] };

/** Client command that opens the graph view (argument: a document URI, optional). */
export const OPEN_GRAPH_COMMAND = "lwir.openGraph";

// ---- the agents' tools in VS Code (client/src/languageModelTools.ts ↔ server/src/mcp/languageServer.ts) ----

/**
 * Custom request of the Node server: `AgentToolParams` → `AgentToolResult`. The answers of `lwir mcp`'s tools
 * (docs/agents.md) for a document the client sends as text: the editor's text, unsaved edits included.
 */
export const AGENT_TOOL_REQUEST = "lwir/agentTool";

export type AgentToolName = "validate" | "fix" | "explain" | "graph" | "complete" | "dry_run" | "test";

export interface AgentToolParams {
  tool: AgentToolName;
  /**
   * The tool's input as `lwir mcp` takes it, with the document as `text` and `format` (never a path); for
   * `test`, `path`: the absolute path of a scenarios file, a workflow or a folder.
   */
  input: Record<string, unknown>;
  /** dry_run: the file of the document sent as text (a file path), for the scenarios file beside it. */
  file?: string;
  /** dry_run and test: the editor's texts of its documents with unsaved edits, by absolute file path; read instead of the disk. */
  texts?: Record<string, string>;
}

/** The tool's structured answer, or the message of its tool error (one of the two). */
export interface AgentToolResult {
  answer?: Record<string, unknown>;
  error?: string;
}

// ---- the dry run in the editor (docs/dry-run.md#in-the-editor; server/src/lsp/dryRunFeatures.ts) --------

/**
 * Custom request: `PreviewPromptParams` → `PromptPreview | null` (null: not an open LWIR document). What the
 * `ai.generate` step at `stepPath` sends the model in the current scenario (the first scenario of the
 * scenarios file beside the workflow, else the generated input): `system` and `user`, or `error`.
 */
export const PREVIEW_PROMPT_REQUEST = "lwir/previewPrompt";

export interface PreviewPromptParams {
  textDocument: { uri: string };
  /** The step's id; for a step in a parallel body, the parallel step's id, `.`, and its id (`triage.draft`). */
  stepPath: string;
}

export type { PromptPreview, PreviewError } from "./run/preview";

/** Client command of the "Preview prompt" code lens (argument: `PreviewPromptArgs`): opens the read-only prompt document. */
export const PREVIEW_PROMPT_COMMAND = "lwir.previewPrompt";

export interface PreviewPromptArgs {
  uri: string;
  stepPath: string;
}

/**
 * Custom request: `DryRunParams` → `DryRunResult | null` (null: not an open LWIR document). "LWIR: Dry run":
 * the workflow's editor text run in the current scenario (as for `lwir/previewPrompt`): the trace as
 * `lwir run --dry --format json` has it, its text, and the graph view's overlay; or `error` when the
 * workflow cannot run (it has problems).
 */
export const DRY_RUN_REQUEST = "lwir/dryRun";

export interface DryRunParams {
  textDocument: { uri: string };
  /**
   * Run this scenario of the scenarios file (its name), or the generated input (null), and keep it as the
   * document's current scenario (hovers and prompt previews follow it) until the document is closed.
   * Omitted: the current scenario (at first the file's first scenario).
   */
  scenario?: string | null;
}

export type DryRunResult = {
  uri: string;
  version: number;
  /** The names of the scenarios in the scenarios file beside the workflow, in file order (empty: none). */
  scenarios: string[];
  /** The name of the scenario that ran (or would have), null for the generated input. */
  scenarioName: string | null;
} & (DryRunReport | { scenario: string; error: string });

export type { DryRunReport, DryRunOverlay, OverlayStep, OverlayChoice, OverlayFailure } from "./run/overlay";

/** Client command "LWIR: Dry run" (argument: a document URI, optional; else the active editor's). */
export const DRY_RUN_COMMAND = "lwir.dryRun";
/** Client command "LWIR: Dry run a scenario…": a pick of the scenarios (and the generated input), then the run. */
export const DRY_RUN_SCENARIO_COMMAND = "lwir.dryRunScenario";

// ---- the Test Explorer (client/src/testExplorer.ts ↔ server/src/lsp/scenarioFeatures.ts) -------------
// Scenarios files (`NAME.lwir.test.yaml|yml|json`, docs/dry-run.md) listed and run as `lwir test` runs them,
// on the editor's text where a file is open (unsaved edits win), else the file as the server reads it.
// Positions are LSP's (0-based line, UTF-16 character), in the scenarios file.

/** Request client → server: `ScenariosParams` → `ScenarioListResult` (the scenarios of a file, not run). */
export const LIST_SCENARIOS_REQUEST = "lwir/listScenarios";
/** Request client → server: `ScenariosParams` → `ScenarioRunResult` (the scenarios run and their `expect` checked). */
export const RUN_SCENARIOS_REQUEST = "lwir/runScenarios";

export interface ScenariosParams {
  /** The scenarios file. */
  uri: string;
  /** Only the scenarios of this name (runScenarios). */
  scenario?: string;
}

export interface ScenarioPosition { line: number; character: number }

export interface ScenarioListResult {
  uri: string;
  /** The workflow the scenarios run against (its `workflow:` key, else the workflow of the same name beside it); absent when none is found. */
  workflow?: string;
  /** Why the file cannot be read as scenarios (unreadable, a syntax error); then `scenarios` is empty. */
  error?: string;
  /** Problems with the file's shape (unknown keys, a missing name), at their positions. */
  problems: Array<{ message: string; position: ScenarioPosition }>;
  scenarios: Array<{ name: string; position: ScenarioPosition }>;
}

export interface ScenarioExpectationFailure {
  /** `expect.steps`, `expect.chosen.ID`, `expect.output`, `expect.error`, or `run` (the run failed unexpectedly). */
  expectation: string;
  message: string;
  /** Where the expectation is written (for `run`: the scenario). */
  position: ScenarioPosition;
  /** Both present, or neither (`run`); `null` stands for a missing value. */
  expected?: unknown;
  actual?: unknown;
}

export interface ScenarioOutcome {
  name: string;
  position: ScenarioPosition;
  /** Ran and every expectation held. */
  passed: boolean;
  failures: ScenarioExpectationFailure[];
  /** Could not run: the file's `error` (the workflow missing, unreadable or invalid). Then `passed` is false and `failures` empty. */
  error?: string;
  /** How the dry run ended, and how many steps ran (absent when it could not run). */
  status?: "completed" | "failed";
  steps?: number;
}

export interface ScenarioRunResult extends Omit<ScenarioListResult, "scenarios"> {
  scenarios: ScenarioOutcome[];
}
