// The text a node shows (a step's lines, a decision's case list, a parallel step's title and fan-out above
// its body and fan-in below it) and the look of each kind of edge. Shared by the layout (which sizes the box to hold these lines whole) and the view
// (which draws them), so what is drawn always fits the box. Pure, no dagre: the webview bundles it.
import { shortenWhen, type GraphEdge, type GraphNode } from "./model";

/** Longest container line shown whole; longer ones are cut with "…" (the hover has them in full). */
export const CONTAINER_MAX_CHARS = 64;

/** Cut at `max` code points with "…" (a surrogate pair is never split). */
export function clipText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Longest line of a leaf node shown whole. */
export const NODE_MAX_CHARS = 40;

/**
 * The lines a node shows: its label, then its type and model/tool/entrypoint, then output mode and maxVisits
 * (a decision's maxVisits on its type line: a line of its own would sit empty above its case list when the
 * view draws maxVisits as a badge). `visits` false: maxVisits left out (the view's badge shows it).
 */
export function nodeLines(node: GraphNode, visits = true): string[] {
  if (node.kind === "end") return ["end"];
  if (node.kind === "missing") return [node.label, "missing"];
  const lines = [node.label];
  const what = node.model ?? node.tool ?? node.entrypoint;
  const count = visits && node.maxVisits !== undefined && node.maxVisits !== 1 ? `×${node.maxVisits}` : undefined;
  const typeLine = node.uses !== undefined ? (what !== undefined ? `${node.uses} · ${what}` : node.uses) : "no uses";
  lines.push(node.uses === "decision" && count ? `${typeLine} · ${count}` : typeLine);
  const extra: string[] = [];
  if (node.outputMode !== undefined) extra.push(node.outputMode);
  if (count && node.uses !== "decision") extra.push(count);
  if (node.container && node.item?.items !== undefined) extra.push(`each ${node.item.items}`);
  if (extra.length > 0) lines.push(extra.join(" · "));
  return lines.map((l) => clipText(l, NODE_MAX_CHARS));
}

export function containerTitle(node: GraphNode): string {
  return `∥ ${node.label} · parallel${node.outputMode ? ` · ${node.outputMode}` : ""}`;
}

export function fanOutText(node: GraphNode): string {
  const item = node.item;
  return item?.items !== undefined ? `fan-out: each ${item.items}${item.itemKey ? ` by ${item.itemKey}` : ""}` : "fan-out: each branch";
}

export function fanInText(node: GraphNode): string {
  const fanIn = node.fanIn;
  return `fan-in${fanIn?.order ? `: ${fanIn.order}` : ""}${fanIn?.output ? ` · ${fanIn.output}` : ""}${fanIn?.outputStep ? ` ← ${fanIn.outputStep}` : ""}`;
}

/** The container's lines as drawn: title and fan-out (the header: the items, then the item key), fan-in (the footer). */
export function containerLines(node: GraphNode): { title: string; fanOut: string[]; fanIn: string } {
  const item = node.item;
  const fanOut = item?.items !== undefined ? [`fan-out: each ${item.items}`, ...(item.itemKey ? [`by ${item.itemKey}`] : [])] : ["fan-out: each branch"];
  return {
    title: clipText(containerTitle(node), CONTAINER_MAX_CHARS),
    fanOut: fanOut.map((l) => clipText(l, CONTAINER_MAX_CHARS)),
    fanIn: clipText(fanInText(node), CONTAINER_MAX_CHARS),
  };
}

/** How an edge is drawn: one look per kind of edge (the view's legend lists them in this order), in the view and in `lwir graph --format svg`. */
export type EdgeLook = "needs" | "case" | "default" | "loop" | "dangling";

export function edgeLook(edge: GraphEdge): EdgeLook {
  if (edge.dangling) return "dangling";
  if (edge.back) return "loop";
  if (edge.kind === "needs") return "needs";
  if (edge.kind === "default" || (edge.kind === "end" && edge.caseIndex === undefined)) return "default";
  return "case";
}

/** Case rows a decision's node shows; more cases are summed up in one "+N more" row (the edges still show each). */
export const CASE_ROWS_MAX = 8;
/** Longest `when` shown in a case row (the row's tooltip has it whole). */
export const CASE_WHEN_CHARS = 22;
/** Height of one row of a decision's case list, and the room below the rows (layout.ts sizes the node with them). */
export const CASE_ROW_HEIGHT = 18;
export const CASE_ROWS_BOTTOM = 6;
/** Longest case row; the layout sizes the node to hold it. */
export const CASE_ROW_CHARS = 40;

export interface CaseRow {
  /** The case's index in `with.cases`: a row that can be dragged; absent for the default and the "more" row. */
  index?: number;
  kind: "case" | "default" | "more";
  /** What the row shows (at most CASE_ROW_CHARS). */
  text: string;
  /** The row's tooltip and accessible name: the whole `when` and target. */
  title: string;
}

/**
 * The case list of a decision node, in text order: one row per case (its `when` shortened, its target),
 * at most CASE_ROWS_MAX, then "+N more" when there are more, then the default. Empty for other nodes.
 */
export function caseRows(node: GraphNode): CaseRow[] {
  if (node.kind !== "step" || node.uses !== "decision") return [];
  const cases = node.cases ?? [];
  const rows: CaseRow[] = cases.slice(0, CASE_ROWS_MAX).map((c, k) => {
    // the target is what the row is about: a long one takes room from the `when` (down to 10 characters)
    const room = Math.min(CASE_WHEN_CHARS, Math.max(10, CASE_ROW_CHARS - 3 - Array.from(c.to).length));
    const when = c.when !== undefined ? shortenWhen(c.when, room) : `case ${c.index + 1}`;
    return {
      index: c.index, kind: "case",
      text: clipText(`${when} → ${c.to}`, CASE_ROW_CHARS),
      title: `Case ${k + 1} of ${cases.length}: when ${c.when ?? "(no when)"} → ${c.to}`,
    };
  });
  const hidden = cases.length - rows.length;
  if (hidden > 0) {
    rows.push({ kind: "more", text: `+${hidden} more case${hidden === 1 ? "" : "s"}`,
      title: `${hidden} more case${hidden === 1 ? "" : "s"} not listed here (the node lists ${CASE_ROWS_MAX}): each is still drawn as an edge; reorder them in the text or with Alt+Up/Down on a case edge` });
  }
  if (node.defaultTo !== undefined) rows.push({ kind: "default", text: clipText(`default → ${node.defaultTo}`, CASE_ROW_CHARS), title: `Default: → ${node.defaultTo} (always last)` });
  return rows;
}
