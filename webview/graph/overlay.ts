// The last dry run drawn over the graph ("LWIR: Dry run", client/src/dryRunCommand.ts): which node and edge
// gets which mark, as plain data, DOM-free (unit tests run it; overlayDom.ts applies it to the drawing).
// Every mark is a class (its colour from the theme, in OVERLAY_STYLE) and also a text: a badge "ran 3×",
// "✗ failed", a "chosen" label on the edge, "not reached" in the node's title, so colour is never alone.
// A run of an older version of the text stays shown, marked stale (the bar says so and the marks fade),
// rather than vanishing at the first keystroke: what the last run did is still worth reading while editing.
import type { DryRunResult, OverlayFailure } from "../../server/src/protocol";
import type { GraphData } from "./view";

export interface NodeMark {
  id: string;
  /** Classes added to the node's element: `dry-ran`, `dry-failed`, `dry-unreached`. */
  classes: string[];
  /** The badge's text (`ran 2×`, `✗ failed`), drawn at the node's top left corner. */
  badge?: string;
  /** Added to the node's title (its hover): what the run did there. */
  title: string;
}

export interface EdgeMark {
  from: string;
  to: string;
  /** The label drawn beside the edge: `chosen`, `chosen 2×`. */
  label: string;
  title: string;
}

export interface OverlayMarks {
  nodes: NodeMark[];
  edges: EdgeMark[];
  /** The bar above the drawing: the scenario and how the run ended. */
  bar: string;
  stale: boolean;
}

function failureText(f: OverlayFailure): string {
  const where = [f.path, f.at].filter(Boolean).join(", ");
  let out = `Failed${where ? ` (${where})` : ""}: ${f.message}`;
  if (f.expression !== undefined) out += `\nExpression: ${f.expression}`;
  if (f.runtime) out += `\nThe runtime: ${f.runtime}`;
  return out;
}

/**
 * The marks of a dry run on a graph: `version` is the document version drawn (a run of another one is
 * stale). Nodes and edges the run names but the graph no longer has are left out.
 */
export function overlayMarks(data: GraphData, run: DryRunResult, version: number): OverlayMarks {
  const stale = run.version !== version;
  const staleText = stale ? ` (version ${run.version}; the text has changed since: run LWIR: Dry run again)` : "";
  if ("error" in run) return { nodes: [], edges: [], bar: `Dry run: ${run.error}${staleText}`, stale };
  const ids = new Set(data.graph.nodes.map((n) => n.id));
  const nodes: NodeMark[] = [];
  const edges: EdgeMark[] = [];
  const { overlay } = run;
  for (const s of overlay.steps) {
    if (!ids.has(s.step)) continue;
    const times = s.runs === 1 ? "once" : `${s.runs} times`;
    const lines = [`Dry run: ran ${times}.`];
    const classes = ["dry-ran"];
    let badge = `ran ${s.runs}×`;
    for (const c of s.chosen ?? []) {
      const target = c.end ? "end" : c.to!.slice(c.to!.lastIndexOf(".") + 1);
      lines.push(`Chose ${target}${c.byDefault ? " (default)" : c.caseIndex !== undefined ? ` (case ${c.caseIndex})` : ""}${s.runs > 1 ? `, ${c.runs} of ${s.runs} runs` : ""}.`);
      const to = c.end ? endOf(data, s.step) : c.to!;
      if (to === undefined || !ids.has(to)) continue;
      const edge = data.graph.edges.find((e) => e.from === s.step && e.to === to && (c.byDefault ? e.kind === "default" : c.caseIndex === undefined || e.caseIndex === c.caseIndex))
        ?? data.graph.edges.find((e) => e.from === s.step && e.to === to);
      if (edge) edges.push({ from: edge.from, to: edge.to, label: c.runs > 1 ? `chosen ${c.runs}×` : "chosen", title: `Dry run: ${s.step} chose ${target}${c.runs > 1 ? ` in ${c.runs} runs` : ""}` });
    }
    if (s.failed) {
      classes.push("dry-failed");
      badge = s.runs > 1 ? `✗ failed (run ${s.runs})` : "✗ failed";
      lines.push(failureText(s.failed));
    }
    nodes.push({ id: s.step, classes, badge, title: lines.join("\n") });
  }
  for (const id of overlay.unreached) {
    if (ids.has(id)) nodes.push({ id, classes: ["dry-unreached"], title: "Dry run: not reached in this scenario." });
  }
  const ran = overlay.steps.reduce((n, s) => n + s.runs, 0);
  const end = overlay.status === "completed" ? "completed" : `failed${overlay.error ? `: ${overlay.error.message}` : (() => {
    const f = overlay.steps.find((s) => s.failed);
    return f ? ` at ${f.failed!.path}` : "";
  })()}`;
  const unreached = overlay.unreached.length > 0 ? `, ${overlay.unreached.length} never reached` : "";
  const bar = `Dry run, ${run.scenario}: ${end} (${ran} step run${ran === 1 ? "" : "s"}${unreached})${staleText}`;
  return { nodes, edges, bar, stale };
}

/** The end node a decision's `end` edge goes to. */
function endOf(data: GraphData, decision: string): string | undefined {
  for (const e of data.graph.edges) {
    if (e.from !== decision) continue;
    if (data.graph.nodes.find((n) => n.id === e.to)?.kind === "end") return e.to;
  }
  return undefined;
}

/** The overlay's look: theme colours mixed towards the foreground as the drawing's are (view.ts GRAPH_STYLE). */
export const OVERLAY_STYLE = [
  ".lwir-graph { --lwir-ran: color-mix(in srgb, var(--vscode-testing-iconPassed, #388a34) 70%, var(--lwir-fg)); }",
  ".lwir-graph .node.dry-ran rect.box { stroke: var(--lwir-ran); stroke-width: 2; }",
  ".lwir-graph .container.dry-ran > rect.group { stroke: var(--lwir-ran); stroke-width: 2; }",
  ".lwir-graph .node.dry-failed rect.box, .lwir-graph .container.dry-failed > rect.group { stroke: var(--lwir-error); stroke-width: 3; stroke-dasharray: none; }",
  ".lwir-graph .dry-unreached { opacity: 0.45; }",
  ".lwir-graph .dry-unreached rect.box { stroke-dasharray: 3 3; }",
  ".lwir-graph .dry-badge rect { fill: var(--lwir-ran); }",
  ".lwir-graph .dry-failed .dry-badge rect { fill: var(--lwir-error); }",
  ".lwir-graph .dry-badge text { fill: var(--lwir-bg); font-size: 10px; font-weight: bold; text-anchor: middle; }",
  ".lwir-graph .edge.dry-chosen path { stroke-width: 3.5; }",
  ".lwir-graph .dry-chosen-label rect { fill: var(--lwir-bg); stroke: var(--lwir-ran); stroke-width: 1.5; }",
  ".lwir-graph .dry-chosen-label text { font-size: 11px; font-weight: bold; text-anchor: middle; fill: var(--lwir-fg); }",
  ".lwir-graph.dry-stale .dry-badge, .lwir-graph.dry-stale .dry-chosen-label { opacity: 0.6; }",
  ".lwir-graph.dry-stale .node.dry-ran rect.box { stroke-dasharray: 6 3; }",
  ".dryrun-bar { display: flex; gap: 8px; align-items: center; padding: 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent);"
    + " background: var(--vscode-editorWidget-background); color: var(--vscode-foreground); }",
  ".dryrun-bar[hidden] { display: none; }",
  ".dryrun-bar .text { flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }",
  ".dryrun-bar.stale .text { font-style: italic; }",
  ".dryrun-bar button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: 1px solid var(--vscode-button-border, transparent); padding: 1px 6px; cursor: pointer; font: inherit; }",
].join("\n");
