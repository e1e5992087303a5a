// Editing from the graph view, DOM-free: what the webview sends (intents naming node ids, never text) and
// how the extension turns an intent into a `lwir/graphEdit` action (server/src/protocol.ts). Pure functions
// of the graph model, so unit tests run them in Node; webview/graph/editing.ts (the page) and
// client/src/graphEditing.ts (the extension) share them.
import type { GraphEdge, GraphNode, WorkflowGraph } from "../../server/src/graph/model";
import type { GraphEditAction, GraphEditReferrer, GraphEditRefusal } from "../../server/src/protocol";
import { usesGlyph } from "./view";

/** The step types the view's palette offers, with the glyph the drawing uses for each (view.ts's usesGlyph). */
export const PALETTE: ReadonlyArray<{ uses: string; glyph: string; title: string }> = [
  { uses: "ai.generate", title: "ai.generate: a model call" },
  { uses: "tool.call", title: "tool.call: a tool call" },
  { uses: "code.run", title: "code.run: your code" },
  { uses: "decision", title: "decision: routes by its cases" },
  { uses: "parallel", title: "parallel: a body run per item" },
].map((p) => ({ ...p, glyph: usesGlyph(p.uses) }));

/** The commands the extension's menus and palette entries ask the page to run on its selection. */
export type EditCommand = "connect" | "disconnect" | "addStep" | "addStepInto" | "deleteStep" | "rename" | "moveCaseUp" | "moveCaseDown" | "delete";

/** The page's styles for editing (added to the page's stylesheet by client/src/graphPanel.ts). */
export const EDIT_STYLE = [
  ".lwir-graph .lwir-handle { fill: var(--lwir-bg); stroke: var(--lwir-focus); stroke-width: 1.5; opacity: 0; cursor: crosshair; }",
  ".lwir-graph [data-id]:hover > .lwir-handle, .lwir-graph .selected > .lwir-handle, .lwir-graph .focused > .lwir-handle, .lwir-graph .lwir-handle:hover { opacity: 1; }",
  ".lwir-graph .edge path.lwir-hit { stroke: transparent; stroke-width: 10; stroke-dasharray: none; fill: none; pointer-events: stroke; cursor: pointer; }",
  ".lwir-graph .edge.lwir-selected path.lwir-hit { stroke: var(--lwir-focus); stroke-opacity: 0.45; }",
  ".lwir-graph .lwir-drag { stroke: var(--lwir-focus); stroke-width: 2; stroke-dasharray: 4 3; fill: none; pointer-events: none; }",
  ".lwir-graph .lwir-drop > rect.box, .lwir-graph .lwir-drop > rect.group { stroke: var(--lwir-focus); stroke-width: 3; stroke-dasharray: 4 2; }",
  ".lwir-graph .case-row[data-case] { cursor: grab; }",
  ".lwir-graph .case-row[data-case]:hover rect.row, .lwir-graph .case-row:focus rect.row { stroke: var(--lwir-focus); stroke-width: 1; }",
  ".lwir-graph .case-row:focus { outline: none; }",
  ".lwir-graph .case-row.lwir-dragged rect.row { stroke: var(--lwir-focus); stroke-width: 1.5; stroke-dasharray: 3 2; }",
  ".lwir-graph .lwir-case-drop { stroke: var(--lwir-focus); stroke-width: 3; stroke-linecap: round; pointer-events: none; }",
  ".lwir-graph.lwir-case-dragging, .lwir-graph.lwir-case-dragging * { cursor: grabbing; }",
  ".lwir-palette { position: absolute; top: 6px; left: 6px; display: flex; flex-direction: column; gap: 2px; z-index: 1; }",
  ".lwir-palette button { width: 26px; height: 24px; padding: 0; font: inherit; cursor: pointer; border-radius: 2px;" +
    " background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: 1px solid var(--vscode-button-border, transparent); }",
  ".lwir-palette button:hover { background: var(--vscode-button-secondaryHoverBackground); }",
  ".lwir-palette button:focus-visible { outline: 1px solid var(--vscode-focusBorder); }",
].join("\n");

/** Which edge of the graph: enough to disconnect or move it (`edge` as lwir/graphEdit's disconnect takes it). */
export interface EdgeRef {
  from: string;
  to: string;
  edge: "needs" | "default" | number;
}

/** What the page asks the extension to do; the extension turns it into an action (actionFor) or a question. */
export type GraphIntent =
  | { kind: "connect"; from: string; to: string }
  | { kind: "disconnect"; edge: EdgeRef }
  /** Add a step of `uses` next to node `at` (after it; `into`: at the end of parallel step `at`'s body); none: at the end of `steps`. */
  | { kind: "addStep"; uses: string; at?: string; into?: boolean }
  | { kind: "deleteStep"; id: string }
  | { kind: "rename"; id: string }
  /** Move decision `step`'s case `index` one place up (-1) or down (+1). */
  | { kind: "moveCase"; step: string; index: number; by: -1 | 1 }
  /** Move decision `step`'s case `index` to index `to` (a row dragged in the node's case list). */
  | { kind: "moveCase"; step: string; index: number; to: number }
  /** Asked from a menu: the extension asks for the step to connect `from` to. */
  | { kind: "connectTo"; from: string }
  /** Asked from a menu: the extension asks for the step type, then adds as addStep does. */
  | { kind: "chooseStep"; at?: string; into?: boolean };

/** The reference of a drawn edge, or undefined for one no graph action removes (a route to `end` is a case too). */
export function edgeRef(edge: GraphEdge): EdgeRef | undefined {
  if (edge.dangling) return undefined;
  if (edge.kind === "needs") return { from: edge.from, to: edge.to, edge: "needs" };
  if (edge.kind === "default") return { from: edge.from, to: edge.to, edge: "default" };
  if (edge.kind === "transition" && edge.caseIndex !== undefined) return { from: edge.from, to: edge.to, edge: edge.caseIndex };
  return undefined;
}

/** The `edge` attribute value the page keeps on a drawn edge ("needs", "default" or a case index). */
export function edgeKey(edge: GraphEdge): string {
  return edge.kind === "needs" ? "needs" : edge.kind === "default" || (edge.kind === "end" && edge.caseIndex === undefined) ? "default" : String(edge.caseIndex ?? "");
}

/** Parses what edgeKey wrote back into disconnect's `edge`. */
export function parseEdgeKey(key: string): EdgeRef["edge"] | undefined {
  if (key === "needs" || key === "default") return key;
  return /^\d+$/.test(key) ? Number(key) : undefined;
}

function node(graph: WorkflowGraph, id: string): GraphNode | undefined {
  return graph.nodes.find((n) => n.id === id);
}

/** Why an intent cannot be sent as it is, said to the user; or the action to send. */
export type IntentOutcome = { action: GraphEditAction } | { refused: string };

/**
 * The lwir/graphEdit action for an intent, read against the graph the view shows. Adding next to a body
 * step stays in its body (`parent` with `after`); `into` a parallel step adds at the end of its body.
 */
export function actionFor(graph: WorkflowGraph, intent: GraphIntent): IntentOutcome {
  switch (intent.kind) {
    case "connect": {
      if (intent.from === intent.to) return { refused: "A step cannot be connected to itself." };
      const from = node(graph, intent.from);
      const to = node(graph, intent.to);
      if (from?.kind !== "step" || to?.kind !== "step") return { refused: "Connect two steps (not an end or a missing step)." };
      return { action: { kind: "connect", from: intent.from, to: intent.to } };
    }
    case "disconnect":
      if (node(graph, intent.edge.to)?.kind === "end") return { refused: "A route to end is removed in the text: delete its case or default there." };
      return { action: { kind: "disconnect", from: intent.edge.from, to: intent.edge.to, edge: intent.edge.edge } };
    case "addStep": {
      if (intent.at === undefined) return { action: { kind: "addStep", uses: intent.uses } };
      const at = node(graph, intent.at);
      if (at?.kind !== "step") return { action: { kind: "addStep", uses: intent.uses } };
      if (intent.into) {
        if (!at.container) return { refused: `Step "${at.label}" is not a parallel step: steps are added into a parallel step's body only.` };
        return { action: { kind: "addStep", uses: intent.uses, parent: at.id } };
      }
      return { action: { kind: "addStep", uses: intent.uses, after: at.id, ...(at.parent ? { parent: at.parent } : {}) } };
    }
    case "deleteStep":
      return { action: { kind: "deleteStep", id: intent.id } };
    case "rename":
    case "connectTo":
    case "chooseStep":
      return { refused: "The extension asks first (rename, the target step, the step type)." };
    case "moveCase": {
      const cases = graph.edges.filter((e) => e.from === intent.step && e.caseIndex !== undefined).map((e) => e.caseIndex!);
      const count = cases.length === 0 ? 0 : Math.max(...cases) + 1;
      const to = "to" in intent ? intent.to : intent.index + intent.by;
      if ("to" in intent && (to === intent.index || !Number.isInteger(to))) return { refused: "The case is in that place already." };
      if (to < 0 || to >= count) return { refused: to < intent.index ? "This is the first case already." : "This is the last case already." };
      return { action: { kind: "moveCase", step: intent.step, from: intent.index, to } };
    }
  }
}

/** The question asked before deleting a step others refer to: the message, listing who refers how. */
export function referencesQuestion(label: string, referrers: readonly GraphEditReferrer[]): string {
  const by = new Map<string, string[]>();
  for (const r of referrers) by.set(r.step, [...(by.get(r.step) ?? []), r.kind]);
  const list = [...by].map(([step, kinds]) => `${step} (${[...new Set(kinds)].join(", ")})`).join(", ");
  return `Step "${label}" is referred to by ${list}. Remove those references too?`;
}

/** The question asked before closing a valid loop: the loop and the maxVisits it needs (a "loop" refusal's data). */
export function loopQuestion(graph: WorkflowGraph | undefined, action: { from: string; to: string }, data: Extract<GraphEditRefusal, { reason: "loop" }>): string {
  const label = (id: string) => graph?.nodes.find((n) => n.id === id)?.label ?? id;
  const loop = [...data.loop, data.loop[0]].map(label).join(" → ");
  const edge = `${label(action.from)} → ${label(action.to)}`;
  if (data.steps.length === 0) return `Connecting ${edge} closes the loop ${loop}; its steps allow enough visits already. Add the edge?`;
  return `Connecting ${edge} closes the loop ${loop}; it needs maxVisits ${data.maxVisits} on ${data.steps.map(label).join(", ")}. Add the edge with maxVisits ${data.maxVisits}?`;
}

/**
 * Where the id of the step addStep inserted is, in the document after the edit: the offset of its value
 * and its length. `edits` are the action's edits as offsets in the text before it (sorted or not); the
 * inserted step is the longest inserted text.
 */
export function insertedIdOffset(edits: ReadonlyArray<{ start: number; end: number; newText: string }>): { offset: number; length: number } | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let longest = -1;
  sorted.forEach((e, i) => { if (longest < 0 || e.newText.length > sorted[longest].newText.length) longest = i; });
  if (longest < 0) return undefined;
  const inserted = sorted[longest];
  // JSON `"id": "x"`, YAML `id: x` or `id: "x"` (the first id in the step: its own, before any body)
  const m = /"id"\s*:\s*"([^"\\]+)"|(?:^|[\s{,-])id:[ \t]*["']?([^"'\s,}#]+)/.exec(inserted.newText);
  if (!m) return undefined;
  const value = m[1] ?? m[2];
  const inText = m.index + m[0].lastIndexOf(value);
  let shift = 0;
  for (let i = 0; i < longest; i++) shift += sorted[i].newText.length - (sorted[i].end - sorted[i].start);
  return { offset: inserted.start + shift + inText, length: value.length };
}
