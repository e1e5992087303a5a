// The graph webview: draws what the extension sends (the server's graph and layout) as SVG, with pan,
// zoom, fit, search, keyboard navigation and the export buttons. No parsing or layout happens here.
// Bundled by scripts/build.mjs into dist/webview/graph.js (an IIFE) and loaded under a CSP with a nonce;
// the page and its stylesheet (view.ts's GRAPH_STYLE among it) come from client/src/graphPanel.ts.
import { EDGE_LOOKS, drawGraph, fitTransform, legendSample, navigate, searchNodes, standaloneSvg, type GraphData, type NavigationKey, type VNode } from "./view";
import type { FromWebview, GraphViewState, ToWebview } from "./messages";
import { applyOverlay } from "./overlayDom";
import type { DryRunResult } from "../../server/src/protocol";
import { installEditing } from "./editing";

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void; getState(): GraphViewState | undefined; setState(state: GraphViewState): void };

const vscode = acquireVsCodeApi();
const SVG_NS = "http://www.w3.org/2000/svg";

const saved = vscode.getState() ?? {};
let data: GraphData | undefined;
let uri = saved.uri;
let transform = saved.transform ?? { x: 16, y: 16, k: 1 };
let hasPosition = saved.transform !== undefined;
let selected: string | undefined;
let focused: string | undefined;
let matches: string[] = [];
let matchIndex = -1;
/** The last dry run of this document, drawn over the graph (overlayDom.ts), and the version drawn. */
let dryRun: DryRunResult | undefined;
let version = -1;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const svg = document.getElementById("canvas") as unknown as SVGSVGElement;
const viewport = document.getElementById("viewport") as unknown as SVGGElement;
const banner = $("banner");
const status = $("status");
const search = $<HTMLInputElement>("search");
const empty = $("empty");
const legend = $("legend");
const editing = installEditing({
  svg, viewport, stage: empty.parentElement!, data: () => data, send: (intent) => vscode.postMessage({ type: "edit", intent }),
  // a click on a decision's case row: the node is selected as by a click on it, the text shows the case
  selectCase: (id, index) => { setFocus(id); vscode.postMessage({ type: "reveal", id, case: index }); },
});

// The legend: a sample of each edge look, drawn with the drawing's own classes (so its own colours).
for (const { look, label, title } of EDGE_LOOKS) {
  const item = document.createElement("span");
  item.className = "item";
  item.title = title;
  item.dataset.look = look;
  item.appendChild(build(legendSample(look)));
  item.appendChild(document.createTextNode(label));
  legend.appendChild(item);
}
{
  const item = document.createElement("span");
  item.className = "item";
  item.title = "a parallel step: its body runs once per item (fan-out, at the top); the results are gathered below it (fan-in)";
  item.dataset.look = "parallel";
  item.appendChild(build({ tag: "svg", attrs: { class: "lwir-graph sample", width: 20, height: 14, viewBox: "0 0 20 14", "aria-hidden": "true" }, children: [
    { tag: "g", attrs: { class: "container" }, children: [{ tag: "rect", attrs: { class: "group", x: 1, y: 1, width: 18, height: 12, rx: 3 } }] },
  ] }));
  item.appendChild(document.createTextNode("parallel"));
  legend.appendChild(item);
}

function build(node: VNode): SVGElement {
  const e = document.createElementNS(SVG_NS, node.tag);
  for (const [k, v] of Object.entries(node.attrs)) e.setAttribute(k, String(v));
  if (node.text !== undefined) e.textContent = node.text;
  for (const c of node.children ?? []) e.appendChild(build(c));
  return e;
}

function applyTransform(): void {
  viewport.setAttribute("transform", `translate(${transform.x},${transform.y}) scale(${transform.k})`);
  vscode.setState({ uri, transform });
}

function redraw(): void {
  if (!data) return;
  const tree = drawGraph(data, { selected, matches: new Set(matches) });
  viewport.replaceChildren(build(tree));
  applyOverlay(viewport, data, dryRun?.uri === uri ? dryRun : undefined, version, () => { dryRun = undefined; redraw(); });
  if (focused) nodeElement(focused)?.classList.add("focused");
  // the matches are what is highlighted (a node the layout has no box for is not drawn, so not found)
  const drawn = new Set(Array.from(viewport.querySelectorAll<SVGGElement>(".match[data-id]"), (e) => e.dataset.id));
  matches = matches.filter((id) => drawn.has(id));
  document.body.dataset.nodes = String(data.graph.nodes.filter((n) => n.kind === "step").length);
  document.body.dataset.edges = String(data.graph.edges.length);
  editing.decorate();
}

function showMatches(): void {
  status.textContent = search.value.trim() === "" ? "" : matches.length === 0 ? "No step found" : `${matches.length} match${matches.length === 1 ? "" : "es"}`;
}

function nodeElement(id: string): SVGGElement | undefined {
  for (const e of viewport.querySelectorAll<SVGGElement>("[data-id]")) if (e.dataset.id === id) return e;
  return undefined;
}

function fit(): void {
  if (!data) return;
  const r = svg.getBoundingClientRect();
  transform = fitTransform(data.layout, r.width, r.height);
  // fitting nothing (a document that never parsed) is no position to keep: the first graph drawn
  // after it is fitted in turn, not left where an empty drawing was centred
  hasPosition = data.graph.nodes.length > 0;
  applyTransform();
}

/** Pans so that the node is in the middle of the view (zoom unchanged). */
/** The zoom below which a node's text is too small to read (12px text at 0.75 is 9px). */
const READABLE_ZOOM = 0.75;

function centre(id: string): void {
  const box = data?.layout.nodes.find((n) => n.id === id);
  if (!box) return;
  const r = svg.getBoundingClientRect();
  transform = { ...transform, x: r.width / 2 - (box.x + box.width / 2) * transform.k, y: r.height / 2 - (box.y + box.height / 2) * transform.k };
  applyTransform();
}

/** Whether the node's box is inside the view. */
function visible(id: string): boolean {
  const box = data?.layout.nodes.find((n) => n.id === id);
  if (!box) return true;
  const r = svg.getBoundingClientRect();
  const x = box.x * transform.k + transform.x;
  const y = box.y * transform.k + transform.y;
  return x >= 0 && y >= 0 && x + box.width * transform.k <= r.width && y + box.height * transform.k <= r.height;
}

function setFocus(id: string | undefined): void {
  if (focused) nodeElement(focused)?.classList.remove("focused");
  focused = id;
  if (!id) return;
  const e = nodeElement(id);
  e?.classList.add("focused");
  if (!visible(id)) centre(id);
  e?.focus({ preventScroll: true });
  status.textContent = e?.getAttribute("aria-label") ?? "";
}

function zoom(factor: number, cx?: number, cy?: number): void {
  const r = svg.getBoundingClientRect();
  const x = cx ?? r.width / 2;
  const y = cy ?? r.height / 2;
  const k = Math.min(4, Math.max(0.05, transform.k * factor));
  transform = { k, x: x - ((x - transform.x) * k) / transform.k, y: y - ((y - transform.y) * k) / transform.k };
  hasPosition = true;
  applyTransform();
}

window.addEventListener("message", (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === "graph") {
    const started = performance.now();
    const { result } = message;
    if (result.uri !== uri) hasPosition = false; // another document: start from its fitted view
    uri = result.uri;
    data = { graph: result.graph, layout: result.layout };
    version = result.version;
    if (message.selected !== undefined) selected = message.selected;
    if (search.value.trim() !== "") matches = searchNodes(data.graph, search.value);
    redraw();
    if (search.value.trim() !== "") showMatches();
    if (message.fit || !hasPosition) fit();
    else applyTransform();
    const shown = result.graph.nodes.length > 0;
    banner.hidden = result.parseOk;
    if (!result.parseOk) {
      const where = result.error ? `line ${result.error.range.start.line + 1}: ` : "";
      const what = `The document does not parse (${where}${result.error?.message ?? "a syntax error"}).`;
      // say that an older graph is shown only when there is one to show
      banner.textContent = shown ? `${what} The graph is the last version that parsed.` : what;
    }
    empty.hidden = shown;
    empty.textContent = shown ? "" : result.parseOk ? "No steps to draw yet: add a step under steps." : "No graph yet: it is drawn as soon as the document parses.";
    document.body.dataset.version = String(result.version);
    document.body.dataset.parseOk = String(result.parseOk);
    // an edit's edges drawn on the last layout, its own layout to follow (GraphResult.provisional)
    document.body.dataset.provisional = String(result.provisional === true);
    const drawMs = performance.now() - started;
    const editToDrawMs = message.editAt !== undefined ? Date.now() - message.editAt : undefined;
    if (editToDrawMs !== undefined) document.body.dataset.editToDrawMs = String(Math.round(editToDrawMs));
    // counted from the page, not from the message: what is on screen
    const steps = viewport.querySelectorAll("g.step[data-id]").length;
    const nodes = viewport.querySelectorAll("[data-id]").length;
    const edges = Array.from(viewport.querySelectorAll<SVGGElement>("g.edge"), (e) => `${e.dataset.from}->${e.dataset.to}:${e.classList[1]}`);
    vscode.postMessage({ type: "drawn", drawn: { uri: result.uri, version: result.version, parseOk: result.parseOk, steps, nodes, edges }, drawMs, editToDrawMs });
  } else if (message.type === "dryRun") {
    dryRun = message.run;
    redraw();
  } else if (message.type === "editCommand") {
    editing.run(message.command);
  } else if (message.type === "select") {
    if (selected === message.id) return;
    if (selected) nodeElement(selected)?.classList.remove("selected");
    selected = message.id;
    if (selected) {
      nodeElement(selected)?.classList.add("selected");
      if (!visible(selected)) centre(selected);
    }
  }
});

// Pan by dragging the background; a click on a node reveals its step.
// (The target is read at pointerdown: with the pointer captured, pointerup's target is the svg.)
const DOUBLE_CLICK_MS = 500;
let lastClick: { id: string; at: number } | undefined;
let drag: { x: number; y: number; tx: number; ty: number; moved: boolean; target: EventTarget | null } | undefined;
svg.addEventListener("pointerdown", (e) => {
  if (e.button !== 0) return;
  drag = { x: e.clientX, y: e.clientY, tx: transform.x, ty: transform.y, moved: false, target: e.target };
  svg.setPointerCapture(e.pointerId);
});
svg.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 4) return;
  drag.moved = true;
  svg.classList.add("panning");
  transform = { ...transform, x: drag.tx + dx, y: drag.ty + dy };
  hasPosition = true;
  applyTransform();
});
svg.addEventListener("pointerup", () => {
  const down = drag;
  drag = undefined;
  svg.classList.remove("panning");
  if (!down || down.moved || !(down.target instanceof Element)) return;
  const target = down.target.closest("[data-id]") as SVGGElement | null;
  const id = target?.dataset.id;
  if (!id) return;
  // A click keeps the keyboard focus here, so Delete and F2 act on the step clicked (editing.ts), not on its
  // id's text; a second click on it soon after (a double click: the captured pointer gets no dblclick of its
  // own target) goes to the step's text with the focus, as Enter does.
  const now = Date.now();
  const again = lastClick?.id === id && now - lastClick.at < DOUBLE_CLICK_MS;
  lastClick = again ? undefined : { id, at: now };
  setFocus(id);
  vscode.postMessage({ type: "reveal", id, ...(again ? { focusEditor: true } : {}) });
});
svg.addEventListener("wheel", (e) => {
  e.preventDefault();
  const r = svg.getBoundingClientRect();
  zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
}, { passive: false });

$("zoomIn").addEventListener("click", () => zoom(1.25));
$("zoomOut").addEventListener("click", () => zoom(0.8));
$("fit").addEventListener("click", () => fit());
$("mermaid").addEventListener("click", () => vscode.postMessage({ type: "copyMermaid" }));
$("saveSvg").addEventListener("click", () => { if (data) vscode.postMessage({ type: "saveSvg", svg: standaloneSvg(data) }); });

search.addEventListener("input", () => {
  matches = data ? searchNodes(data.graph, search.value) : [];
  matchIndex = -1;
  redraw();
  showMatches();
});
search.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" || matches.length === 0) return;
  e.preventDefault();
  matchIndex = (matchIndex + (e.shiftKey ? -1 : 1) + matches.length) % matches.length;
  const id = matches[matchIndex];
  // a step found in a big graph fitted to the view would be a speck: go to it at a size that reads
  if (transform.k < READABLE_ZOOM) transform = { ...transform, k: 1 };
  centre(id);
  setFocus(id);
  search.focus();
  status.textContent = `${matchIndex + 1} of ${matches.length}: ${id}`;
});

svg.addEventListener("keydown", (e) => {
  if (!data) return;
  if (e.key === "Enter" || e.key === " ") {
    if (focused) { e.preventDefault(); vscode.postMessage({ type: "reveal", id: focused, focusEditor: true }); }
    return;
  }
  if (e.key === "+" || e.key === "=") return zoom(1.25);
  if (e.key === "-") return zoom(0.8);
  const key: NavigationKey | undefined = e.key === "Tab" ? (e.shiftKey ? "ShiftTab" : "Tab")
    : ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key) ? (e.key as NavigationKey) : undefined;
  if (!key) return;
  // Tab past the last node leaves the drawing (so keyboard users are not trapped in it)
  const ids = data.graph.nodes.map((n) => n.id);
  if (key === "Tab" && focused === ids[ids.length - 1]) return;
  if (key === "ShiftTab" && focused === ids[0]) return;
  e.preventDefault();
  setFocus(navigate(data, focused, key));
});
svg.addEventListener("focus", () => { if (!focused && data) setFocus(navigate(data, undefined, "Tab")); });

vscode.postMessage({ type: "ready" });
