// Editing from the graph, in the page: a handle on each step to drag an edge to another step, edges
// selectable by a click, Delete / Backspace / F2 / Alt+↑↓ on what is selected, a palette of step types,
// and the context menu's data (data-vscode-context, read by VS Code's webview/context menus). The page
// only sends intents naming node ids (editIntents.ts); the extension asks the server for the text edit
// (client/src/graphEditing.ts) and the view redraws from the edited text like after any edit.
import type { GraphData } from "./view";
import { PALETTE, edgeKey, parseEdgeKey, type EdgeRef, type EditCommand, type GraphIntent } from "./editIntents";

const SVG_NS = "http://www.w3.org/2000/svg";

export interface EditingHost {
  svg: SVGSVGElement;
  viewport: SVGGElement;
  stage: HTMLElement;
  data(): GraphData | undefined;
  send(intent: GraphIntent): void;
  /** A click on a case row: select the decision's node and show the case in the text. */
  selectCase(step: string, index: number): void;
}

export interface Editing {
  /** After each redraw: handles, hit areas, context-menu data, the selected edge kept. */
  decorate(): void;
  run(command: EditCommand): void;
}

export function installEditing(host: EditingHost): Editing {
  const { svg, viewport } = host;
  let selectedEdge: EdgeRef | undefined;
  let connecting: { from: string; line: SVGPathElement; x: number; y: number; over?: Element } | undefined;
  let down: { x: number; y: number; target: EventTarget | null } | undefined;

  svg.dataset.vscodeContext = JSON.stringify({ webviewSection: "canvas", preventDefaultContextMenuItems: true });

  // the step a command acts on: the one focused in the graph, else the one under the editor's cursor
  const currentNode = (): string | undefined =>
    (viewport.querySelector<SVGGElement>(".focused[data-id]") ?? viewport.querySelector<SVGGElement>(".selected[data-id]"))?.dataset.id;
  const stepNode = (id: string | undefined) => host.data()?.graph.nodes.find((n) => n.id === id && n.kind === "step");

  // the palette: one button per step type; adds after the current step (or at the end of steps)
  const palette = document.createElement("div");
  palette.className = "lwir-palette";
  palette.setAttribute("role", "toolbar");
  palette.setAttribute("aria-label", "Add a step after the selected step");
  for (const { uses, glyph, title } of PALETTE) {
    const b = document.createElement("button");
    b.textContent = glyph;
    b.title = `Add ${title} after the selected step`;
    b.setAttribute("aria-label", `Add ${uses}`);
    b.dataset.uses = uses;
    // keep the graph's selection: the button must not take focus from the node on a mouse press
    b.addEventListener("pointerdown", (e) => e.preventDefault());
    b.addEventListener("click", () => host.send({ kind: "addStep", uses, ...(currentNode() ? { at: currentNode() } : {}) }));
    palette.appendChild(b);
  }
  host.stage.appendChild(palette);

  function edgeElements(): SVGGElement[] {
    return Array.from(viewport.querySelectorAll<SVGGElement>("g.edge"));
  }

  function refOf(g: Element | null): EdgeRef | undefined {
    const e = g as SVGGElement | null;
    const edge = e?.dataset.edge !== undefined ? parseEdgeKey(e.dataset.edge) : undefined;
    return e && edge !== undefined && e.dataset.from && e.dataset.to ? { from: e.dataset.from, to: e.dataset.to, edge } : undefined;
  }

  function showSelectedEdge(): void {
    for (const g of viewport.querySelectorAll(".edge.lwir-selected")) g.classList.remove("lwir-selected");
    if (!selectedEdge) return;
    const match = edgeElements().find((g) => { const r = refOf(g); return r && r.from === selectedEdge!.from && r.to === selectedEdge!.to && r.edge === selectedEdge!.edge; });
    if (match) match.classList.add("lwir-selected");
    else selectedEdge = undefined; // gone from the graph (disconnected, or the text changed)
    svg.dataset.selectedEdge = selectedEdge ? `${selectedEdge.from}->${selectedEdge.to}:${selectedEdge.edge}` : "";
  }

  function selectEdge(ref: EdgeRef | undefined): void {
    selectedEdge = ref;
    showSelectedEdge();
    if (!ref) delete svg.dataset.selectedEdge;
  }

  function decorate(): void {
    const data = host.data();
    if (!data) return;
    // the drawn edges of each (from, to, kind) are in the graph's order: pair them up by position
    const groups = new Map<string, typeof data.graph.edges>();
    for (const e of data.graph.edges) {
      const k = `${e.from}\u0000${e.to}\u0000${e.kind}`;
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    const seen = new Map<string, number>();
    for (const g of edgeElements()) {
      const kind = g.classList[1];
      const k = `${g.dataset.from}\u0000${g.dataset.to}\u0000${kind}`;
      const n = seen.get(k) ?? 0;
      seen.set(k, n + 1);
      const edge = groups.get(k)?.[n];
      if (!edge || edge.dangling) continue;
      const key = edgeKey(edge);
      g.dataset.edge = key;
      const isCase = edge.caseIndex !== undefined;
      g.dataset.vscodeContext = JSON.stringify({ webviewSection: isCase ? "caseEdge" : "edge", lwirFrom: edge.from, lwirTo: edge.to, lwirEdge: key, preventDefaultContextMenuItems: true });
      const path = g.querySelector("path");
      if (path) {
        // a wide, transparent copy of the line to click on (after the drawn one, which stays the first path)
        const hit = document.createElementNS(SVG_NS, "path");
        hit.setAttribute("d", path.getAttribute("d") ?? "");
        hit.setAttribute("class", "lwir-hit");
        g.appendChild(hit);
      }
    }
    const nodes = new Map(data.graph.nodes.map((n) => [n.id, n]));
    for (const g of viewport.querySelectorAll<SVGGElement>("g.step[data-id]")) {
      const node = nodes.get(g.dataset.id ?? "");
      g.dataset.vscodeContext = JSON.stringify({ webviewSection: "step", lwirStep: g.dataset.id, lwirUses: node?.uses ?? "", preventDefaultContextMenuItems: true });
      const box = g.querySelector(":scope > rect.box, :scope > rect.group");
      if (!box || !node || node.problem) continue;
      // the connect handle: the middle of the box's bottom border (where edges leave)
      const x = Number(box.getAttribute("x")) + Number(box.getAttribute("width")) / 2;
      const y = Number(box.getAttribute("y")) + Number(box.getAttribute("height"));
      const handle = document.createElementNS(SVG_NS, "circle");
      handle.setAttribute("class", "lwir-handle");
      handle.setAttribute("cx", String(x));
      handle.setAttribute("cy", String(y));
      handle.setAttribute("r", "6");
      const title = document.createElementNS(SVG_NS, "title");
      title.textContent = "Drag to another step to connect them";
      handle.appendChild(title);
      g.appendChild(handle);
    }
    showSelectedEdge();
    if (focusAfterMove && focusAfterMove.was !== data) {
      // the moved case's row, once a graph after the move is drawn
      const { step, index } = focusAfterMove;
      focusAfterMove = undefined;
      const stepEl = Array.from(viewport.querySelectorAll<SVGGElement>("g.step[data-id]")).find((g) => g.dataset.id === step);
      const row = stepEl && caseRowsOf(stepEl).find((r) => Number(r.dataset.case) === index);
      row?.focus({ preventScroll: true });
    }
  }

  /** The point of the drawing under a client position. */
  function drawingPoint(clientX: number, clientY: number): { x: number; y: number } {
    const m = viewport.getScreenCTM();
    if (!m) return { x: clientX, y: clientY };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  function stepUnder(clientX: number, clientY: number): SVGGElement | undefined {
    for (const el of document.elementsFromPoint(clientX, clientY)) {
      if (el.classList.contains("lwir-drag")) continue;
      const g = el.closest<SVGGElement>("g.step[data-id]");
      if (g) return g;
    }
    return undefined;
  }

  // ---- a decision's case list: drag a row to reorder, keys on a focused row -----------------------
  // Captured before the node's own handlers (the handle's connect below, the page's pan and click in
  // main.ts): stopImmediatePropagation keeps them from seeing a press that starts on a case row.
  let caseDrag: { step: string; from: number; row: SVGGElement; x: number; y: number; moved: boolean; to?: number; marker?: SVGLineElement; pointer: number } | undefined;
  /** After a keyboard move, the row to focus once the graph has redrawn with the new order. */
  let focusAfterMove: { step: string; index: number; was: GraphData | undefined } | undefined;

  const rowOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<SVGGElement>("g.case-row[data-case]") : null);
  const stepOfRow = (row: Element) => row.closest<SVGGElement>("g.step[data-id]")?.dataset.id;
  const caseRowsOf = (step: Element) => Array.from(step.querySelectorAll<SVGGElement>("g.case-row[data-case]"));
  const rowBox = (row: Element) => {
    const r = row.querySelector("rect.row");
    return { x: Number(r?.getAttribute("x")), y: Number(r?.getAttribute("y")), width: Number(r?.getAttribute("width")), height: Number(r?.getAttribute("height")) };
  };

  /** The index the dragged case goes to for a pointer at drawing height `y`: the row under it, clamped to the case rows. */
  function dropIndex(rows: SVGGElement[], y: number): number {
    for (const row of rows) {
      const b = rowBox(row);
      if (y < b.y + b.height) return Number(row.dataset.case);
    }
    return Number(rows[rows.length - 1].dataset.case);
  }

  function endCaseDrag(apply: boolean): void {
    const d = caseDrag;
    if (!d) return;
    caseDrag = undefined;
    d.marker?.remove();
    d.row.classList.remove("lwir-dragged");
    viewport.querySelector(".lwir-graph")?.classList.remove("lwir-case-dragging");
    delete svg.dataset.caseDrag;
    if (svg.hasPointerCapture(d.pointer)) svg.releasePointerCapture(d.pointer);
    if (apply && d.moved && d.to !== undefined && d.to !== d.from) host.send({ kind: "moveCase", step: d.step, index: d.from, to: d.to });
  }

  svg.addEventListener("pointerdown", (e) => {
    const row = rowOf(e.target);
    if (!row || e.button !== 0) return;
    const step = stepOfRow(row);
    if (!step) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    caseDrag = { step, from: Number(row.dataset.case), row, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
    svg.setPointerCapture(e.pointerId);
  }, true);
  svg.addEventListener("pointermove", (e) => {
    const d = caseDrag;
    if (!d) return;
    e.stopImmediatePropagation();
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4) return;
    const stepEl = d.row.closest("g.step[data-id]");
    if (!stepEl) return;
    const rows = caseRowsOf(stepEl);
    if (!d.moved) {
      d.moved = true;
      d.row.classList.add("lwir-dragged");
      viewport.querySelector(".lwir-graph")?.classList.add("lwir-case-dragging");
      d.marker = document.createElementNS(SVG_NS, "line") as SVGLineElement;
      d.marker.setAttribute("class", "lwir-case-drop");
      stepEl.appendChild(d.marker);
    }
    const to = dropIndex(rows, drawingPoint(e.clientX, e.clientY).y);
    d.to = to;
    svg.dataset.caseDrag = `${d.from}->${to}`;
    // the drop indicator: a bar where the case will land (above the row it moves up to, below the one it moves down to)
    const target = rows.find((r) => Number(r.dataset.case) === to) ?? d.row;
    const b = rowBox(target);
    const y = to === d.from ? b.y + b.height / 2 : to < d.from ? b.y - 1 : b.y + b.height + 1;
    d.marker!.setAttribute("x1", String(b.x + 2));
    d.marker!.setAttribute("x2", String(b.x + b.width - 2));
    d.marker!.setAttribute("y1", String(y));
    d.marker!.setAttribute("y2", String(y));
    d.marker!.style.display = to === d.from ? "none" : "";
  }, true);
  svg.addEventListener("pointerup", (e) => {
    const d = caseDrag;
    if (!d) return;
    e.stopImmediatePropagation();
    if (d.moved) return endCaseDrag(true);
    // a click: the decision is selected and the case shown in the text
    endCaseDrag(false);
    host.selectCase(d.step, d.from);
  }, true);
  svg.addEventListener("pointercancel", (e) => { if (caseDrag) { e.stopImmediatePropagation(); endCaseDrag(false); } }, true);
  // Escape cancels a drag wherever the keyboard focus is
  window.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && caseDrag) { e.preventDefault(); e.stopPropagation(); endCaseDrag(false); }
  }, true);

  /** Keys on a focused case row: Alt+↑/↓ moves the case, ↑/↓ and Tab go through the rows, Escape back to the node, Enter shows the case. */
  function caseRowKey(e: KeyboardEvent, row: SVGGElement): boolean {
    const step = stepOfRow(row);
    const stepEl = row.closest<SVGGElement>("g.step[data-id]");
    if (!step || !stepEl) return false;
    const rows = caseRowsOf(stepEl);
    const at = rows.indexOf(row);
    const index = Number(row.dataset.case);
    if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      const by = e.key === "ArrowUp" ? -1 : 1;
      const to = index + by;
      if (at + by >= 0 && at + by < rows.length) focusAfterMove = { step, index: to, was: host.data() };
      host.send({ kind: "moveCase", step, index, by });
      return true;
    }
    if (e.key === "ArrowUp" || e.key === "ArrowDown" || (e.key === "Tab" && !(e.shiftKey ? at === 0 : at === rows.length - 1))) {
      const next = rows[at + (e.key === "ArrowUp" || (e.key === "Tab" && e.shiftKey) ? -1 : 1)];
      if (next) next.focus({ preventScroll: true });
      else if (e.key === "ArrowUp") stepEl.focus({ preventScroll: true });
      return true;
    }
    if ((e.key === "Tab" && e.shiftKey) || e.key === "Escape") { stepEl.focus({ preventScroll: true }); return true; }
    if (e.key === "Enter" || e.key === " ") { host.selectCase(step, index); row.focus({ preventScroll: true }); return true; }
    return false;
  }

  // Drag from a handle: captured before the page's pan (main.ts), which never sees these pointer events.
  svg.addEventListener("pointerdown", (e) => {
    down = e.button === 0 ? { x: e.clientX, y: e.clientY, target: e.target } : undefined;
    const handle = e.target instanceof Element ? e.target.closest(".lwir-handle") : null;
    if (!handle || e.button !== 0) return;
    const from = handle.closest<SVGGElement>("[data-id]")?.dataset.id;
    if (!from) return;
    e.stopPropagation();
    e.preventDefault();
    down = undefined;
    const start = { x: Number(handle.getAttribute("cx")), y: Number(handle.getAttribute("cy")) };
    const line = document.createElementNS(SVG_NS, "path") as SVGPathElement;
    line.setAttribute("class", "lwir-drag");
    line.setAttribute("d", `M${start.x},${start.y} L${start.x},${start.y}`);
    viewport.querySelector(".lwir-graph")?.appendChild(line);
    connecting = { from, line, ...start };
    svg.setPointerCapture(e.pointerId);
    svg.dataset.connecting = from;
  }, true);
  svg.addEventListener("pointermove", (e) => {
    if (!connecting) return;
    e.stopPropagation();
    const p = drawingPoint(e.clientX, e.clientY);
    connecting.line.setAttribute("d", `M${connecting.x},${connecting.y} L${p.x},${p.y}`);
    const over = stepUnder(e.clientX, e.clientY);
    if (over !== connecting.over) {
      connecting.over?.classList.remove("lwir-drop");
      connecting.over = over && over.dataset.id !== connecting.from ? over : undefined;
      connecting.over?.classList.add("lwir-drop");
    }
  }, true);
  const endConnect = (e: PointerEvent, drop: boolean) => {
    if (!connecting) return false;
    e.stopPropagation();
    const { from, line, over } = connecting;
    connecting = undefined;
    line.remove();
    over?.classList.remove("lwir-drop");
    delete svg.dataset.connecting;
    const to = drop ? stepUnder(e.clientX, e.clientY)?.dataset.id : undefined;
    if (to && to !== from) host.send({ kind: "connect", from, to });
    return true;
  };
  svg.addEventListener("pointerup", (e) => {
    if (endConnect(e, true)) return;
    // a click (no drag) on an edge selects it; on anything else it drops the edge selection
    const d = down;
    down = undefined;
    if (!d || Math.hypot(e.clientX - d.x, e.clientY - d.y) >= 4) return;
    const edge = d.target instanceof Element ? d.target.closest("g.edge") : null;
    selectEdge(refOf(edge));
    if (edge) svg.focus({ preventScroll: true });
  }, true);
  svg.addEventListener("pointercancel", (e) => void endConnect(e, false), true);

  function run(command: EditCommand): void {
    const id = currentNode();
    const node = stepNode(id);
    switch (command) {
      case "delete":
        if (selectedEdge) return host.send({ kind: "disconnect", edge: selectedEdge });
        if (node) host.send({ kind: "deleteStep", id: node.id });
        return;
      case "disconnect":
        if (selectedEdge) host.send({ kind: "disconnect", edge: selectedEdge });
        return;
      case "deleteStep":
        if (node) host.send({ kind: "deleteStep", id: node.id });
        return;
      case "rename":
        if (node) host.send({ kind: "rename", id: node.id });
        return;
      case "moveCaseUp":
      case "moveCaseDown":
        if (selectedEdge && typeof selectedEdge.edge === "number") {
          const by = command === "moveCaseUp" ? -1 : 1;
          // the selection follows the case to its new place
          const intent: GraphIntent = { kind: "moveCase", step: selectedEdge.from, index: selectedEdge.edge, by };
          selectedEdge = { ...selectedEdge, edge: selectedEdge.edge + by };
          host.send(intent);
        }
        return;
      case "connect":
      case "addStep":
      case "addStepInto":
        // these ask in the extension (which step, which type): sent with the current step
        if (node) host.send(command === "connect" ? { kind: "connectTo", from: node.id } : { kind: "chooseStep", at: node.id, into: command === "addStepInto" });
        else if (command === "addStep") host.send({ kind: "chooseStep" });
        return;
    }
  }

  // Keys on the drawing, before the page's own navigation (main.ts): Alt+↑/↓ must not also move the focus.
  svg.addEventListener("keydown", (e) => {
    const row = rowOf(document.activeElement);
    if (row) {
      // the last row's Tab is not handled here: it goes on to the next node (main.ts)
      if (caseRowKey(e, row)) { e.preventDefault(); e.stopPropagation(); }
      return;
    }
    // Tab on a focused decision goes into its case list first
    const active = document.activeElement instanceof Element ? document.activeElement.closest<SVGGElement>("g.step[data-id]") : null;
    if (e.key === "Tab" && !e.shiftKey && !e.altKey && active && active === document.activeElement) {
      const first = caseRowsOf(active)[0];
      if (first) { e.preventDefault(); e.stopPropagation(); first.focus({ preventScroll: true }); return; }
    }
    if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); e.stopPropagation(); return run("delete"); }
    if (e.key === "F2") { e.preventDefault(); e.stopPropagation(); return run("rename"); }
    if (e.key === "Escape" && selectedEdge) { e.stopPropagation(); return selectEdge(undefined); }
    if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown") && selectedEdge) {
      e.preventDefault();
      e.stopPropagation();
      return run(e.key === "ArrowUp" ? "moveCaseUp" : "moveCaseDown");
    }
  }, true);

  return { decorate, run };
}
