// Messages between the extension (client/src/graphPanel.ts) and the graph webview (main.ts).
import type { DryRunResult, GraphResult } from "../../server/src/protocol";
import type { EditCommand, GraphIntent } from "./editIntents";

export type ToWebview =
  /** A new answer of the server; `editAt` is when the edit it follows was seen (Date.now()), for the timing. */
  | { type: "graph"; result: GraphResult; fit?: boolean; editAt?: number; selected?: string }
  /** The step under the editor's cursor (undefined: none). */
  | { type: "select"; id: string | undefined }
  /** The last dry run of the document shown (overlay.ts draws it), or none. */
  | { type: "dryRun"; run: DryRunResult | undefined }
  /** A graph edit command (menu, palette) to run on the view's selection (editing.ts). */
  | { type: "editCommand"; command: EditCommand };

export type FromWebview =
  | { type: "ready" }
  /** Reveal and select this node's step in the editor; `focusEditor`: also move the keyboard focus there. */
  | { type: "reveal"; id: string; focusEditor?: boolean; case?: number }
  | { type: "copyMermaid" }
  | { type: "saveSvg"; svg: string }
  /** An edit asked for in the view (node ids only; client/src/graphEditing.ts). */
  | { type: "edit"; intent: GraphIntent }
  /** A graph was drawn: what it shows, and the milliseconds from the edit to the drawn view when known. */
  | { type: "drawn"; drawn: GraphDrawn; editToDrawMs?: number; drawMs: number };

/** What the view drew (logged by the extension with the time from the edit). */
export interface GraphDrawn {
  uri: string;
  version: number;
  parseOk: boolean;
  /** Drawn node elements of step nodes, and of all nodes. */
  steps: number;
  nodes: number;
  /** Drawn edges, each as "from->to:kind". */
  edges: string[];
}

/** What the webview keeps across reloads (vscode.setState), and the serializer reads. */
export interface GraphViewState {
  uri?: string;
  transform?: { x: number; y: number; k: number };
}
