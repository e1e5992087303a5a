// Puts the dry run's marks (overlay.ts) on the drawn graph: classes, a badge on each step that ran, a
// "chosen" label on each edge a decision took, the run's words in each node's title (its hover), and the
// bar above the drawing. Called by main.ts after each drawing, so the marks follow every redraw.
import type { DryRunResult } from "../../server/src/protocol";
import { overlayMarks } from "./overlay";
import type { GraphData } from "./view";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The bar above the drawing (made once, before the stage), with its "Clear" button. */
function bar(onClear: () => void): HTMLElement {
  let e = document.getElementById("dryrun");
  if (e) return e;
  e = document.createElement("div");
  e.id = "dryrun";
  e.className = "dryrun-bar";
  e.setAttribute("role", "status");
  e.hidden = true;
  const text = document.createElement("span");
  text.className = "text";
  const clear = document.createElement("button");
  clear.textContent = "Clear";
  clear.title = "Remove the dry run's marks from the graph";
  clear.addEventListener("click", onClear);
  e.append(text, clear);
  document.querySelector(".stage")?.before(e);
  return e;
}

export function applyOverlay(viewport: SVGGElement, data: GraphData | undefined, run: DryRunResult | undefined, version: number, onClear: () => void): void {
  const strip = bar(onClear);
  const root = viewport.querySelector<SVGGElement>("g.lwir-graph");
  if (!data || !run || !root) {
    strip.hidden = true;
    delete document.body.dataset.dryRun;
    return;
  }
  const marks = overlayMarks(data, run, version);
  strip.hidden = false;
  strip.classList.toggle("stale", marks.stale);
  strip.querySelector(".text")!.textContent = marks.bar;
  strip.title = marks.bar;
  root.classList.toggle("dry-stale", marks.stale);
  document.body.dataset.dryRun = marks.stale ? "stale" : "current";
  const boxes = new Map(data.layout.nodes.map((n) => [n.id, n]));
  const elements = new Map<string, SVGGElement>();
  for (const e of root.querySelectorAll<SVGGElement>("[data-id]")) elements.set(e.dataset.id!, e);
  for (const m of marks.nodes) {
    const e = elements.get(m.id);
    if (!e) continue;
    e.classList.add(...m.classes);
    const title = e.querySelector(":scope > title");
    if (title) title.textContent = `${title.textContent}\n\n${m.title}`;
    e.setAttribute("aria-label", `${e.getAttribute("aria-label") ?? m.id}. ${m.title.split("\n")[0]}`);
    const box = boxes.get(m.id);
    if (m.badge && box) {
      const w = Array.from(m.badge).length * 6.2 + 10;
      const g = svgEl("g", { class: "dry-badge" });
      g.append(svgEl("title", {}, m.title), svgEl("rect", { x: box.x - 4, y: box.y - 8, width: w, height: 15, rx: 7 }), svgEl("text", { x: box.x - 4 + w / 2, y: box.y }, m.badge));
      e.append(g);
    }
  }
  for (const m of marks.edges) {
    for (const e of root.querySelectorAll<SVGGElement>("g.edge")) {
      if (e.dataset.from !== m.from || e.dataset.to !== m.to) continue;
      e.classList.add("dry-chosen");
      e.dataset.chosen = m.label;
      const path = e.querySelector<SVGPathElement>("path");
      if (!path) continue;
      const length = path.getTotalLength();
      const at = path.getPointAtLength(length * 0.7);
      const w = Array.from(m.label).length * 6.6 + 10;
      const g = svgEl("g", { class: "dry-chosen-label" });
      g.append(svgEl("title", {}, m.title), svgEl("rect", { x: at.x - w / 2, y: at.y - 8, width: w, height: 16, rx: 3 }), svgEl("text", { x: at.x, y: at.y }, m.label));
      e.append(g);
    }
  }
}
