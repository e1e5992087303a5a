// The text a parallel step's box shows around its body: its title and fan-out above the body, its
// fan-in below it; and the look of each kind of edge. Shared by the layout (which sizes the box to hold these lines whole) and the view
// (which draws them), so what is drawn always fits the box. Pure, no dagre: the webview bundles it.
import type { GraphEdge, GraphNode } from "./model";

/** Longest container line shown whole; longer ones are cut with "…" (the hover has them in full). */
export const CONTAINER_MAX_CHARS = 64;

/** Cut at `max` code points with "…" (a surrogate pair is never split). */
export function clipText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
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
