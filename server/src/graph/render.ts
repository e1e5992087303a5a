// Text renderings of the workflow graph: Mermaid (renders in GitHub Markdown), DOT (Graphviz), a
// standalone SVG drawn from layoutGraph (the same layout the view uses) and the JSON contract
// (docs/graph.md). Pure functions of the model; every piece of document text is escaped for its target.
import type { GraphEdge, GraphNode, WorkflowGraph } from "./model";
import { LINE_HEIGHT, clip, layoutGraph, nodeLines, type GraphLayout } from "./layout";
import { CASE_ROW_HEIGHT, CASE_ROWS_BOTTOM, caseRows, edgeLook, type EdgeLook } from "./labels";

// ---- JSON ----------------------------------------------------------------------------------------

/** The JSON contract: nodes with id, uses, scope (and the optional facts), edges with from, to, kind, label. */
export function toJson(graph: WorkflowGraph): string {
  const nodes = graph.nodes.map((n) => {
    const out: Record<string, unknown> = { id: n.id, kind: n.kind, label: n.label, uses: n.uses ?? null, scope: n.scope };
    if (n.stepId !== undefined) out.stepId = n.stepId;
    for (const k of ["model", "tool", "entrypoint", "outputMode", "maxVisits", "container", "item", "fanIn", "fanInOutput", "problem", "path"] as const) {
      if (n[k] !== undefined) out[k] = n[k];
    }
    out.findings = n.findings;
    return out;
  });
  const edges = graph.edges.map((e) => {
    const out: Record<string, unknown> = { from: e.from, to: e.to, kind: e.kind };
    if (e.label !== undefined) out.label = e.label;
    for (const k of ["caseIndex", "when", "back", "dangling"] as const) if (e[k] !== undefined) out[k] = e[k];
    return out;
  });
  return JSON.stringify({ nodes, edges, findings: graph.findings }, null, 2) + "\n";
}

// ---- Mermaid -------------------------------------------------------------------------------------

/** Text inside a quoted Mermaid label: everything but plain ASCII letters, digits and a few marks as `#code;`. */
function mermaidText(text: string): string {
  let out = "";
  for (const ch of text) {
    out += /[A-Za-z0-9 _.,:\-+/=()]/.test(ch) ? ch : `#${ch.codePointAt(0)};`;
  }
  return out;
}

function mermaidLabel(node: GraphNode): string {
  return nodeLines(node).map(mermaidText).join("<br/>");
}

/** A Mermaid flowchart; parallel steps are subgraphs, decisions rhombi, End a circle, missing steps flagged. */
export function toMermaid(graph: WorkflowGraph): string {
  const ids = new Map<string, string>();
  graph.nodes.forEach((n, i) => ids.set(n.id, `n${i}`));
  const lines = ["flowchart TD"];
  const children = childrenOf(graph);
  const classes: Record<string, string[]> = { error: [], warning: [], missing: [], endNode: [] };
  const emit = (node: GraphNode, indent: string) => {
    const id = ids.get(node.id)!;
    const label = mermaidLabel(node);
    const kids = children.get(node.id);
    if (node.kind === "missing") classes.missing.push(id);
    else if (node.kind === "end") classes.endNode.push(id);
    else if (node.findings.errors > 0) classes.error.push(id);
    else if (node.findings.warnings > 0) classes.warning.push(id);
    if (kids && kids.length > 0) {
      lines.push(`${indent}subgraph ${id}["${label}"]`);
      lines.push(`${indent}  direction TB`);
      for (const k of kids) emit(k, `${indent}  `);
      lines.push(`${indent}end`);
      return;
    }
    let shape: [string, string];
    if (node.kind === "end") shape = ["((", "))"];
    else if (node.kind === "missing") shape = [">", "]"];
    else if (node.uses === "decision") shape = ["{", "}"];
    else if (node.uses === "tool.call") shape = ["[[", "]]"];
    else if (node.uses === "code.run") shape = ["[/", "/]"];
    else shape = ["(", ")"];
    lines.push(`${indent}${id}${shape[0]}"${label}"${shape[1]}`);
  };
  for (const n of children.get("") ?? []) emit(n, "  ");
  for (const e of graph.edges) {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (from === undefined || to === undefined) continue;
    const arrow = e.back || e.dangling ? "-.->" : e.kind === "needs" ? "-->" : "==>";
    const label = e.label !== undefined && e.label !== "" ? `|"${mermaidText(clip(e.label, 40))}"|` : "";
    lines.push(`  ${from} ${arrow}${label} ${to}`);
  }
  lines.push("  classDef error stroke:#d1242f,stroke-width:3px");
  lines.push("  classDef warning stroke:#bf8700,stroke-width:3px");
  lines.push("  classDef missing stroke:#d1242f,stroke-dasharray:4 3");
  lines.push("  classDef endNode stroke-width:2px");
  for (const [name, members] of Object.entries(classes)) if (members.length > 0) lines.push(`  class ${members.join(",")} ${name}`);
  return lines.join("\n") + "\n";
}

// ---- DOT -----------------------------------------------------------------------------------------

/** A DOT string literal: `"` and `\` escaped, line breaks as `\n`, other control characters and lone surrogates dropped. */
function dotString(text: string): string {
  const clean = text
    .replace(/\r\n|\r|\n/g, "\n")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  return `"${clean.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** A Graphviz digraph; parallel steps are clusters (edges to one go to its first body node, clipped with lhead/ltail). */
export function toDot(graph: WorkflowGraph): string {
  const ids = new Map<string, string>();
  graph.nodes.forEach((n, i) => ids.set(n.id, `n${i}`));
  const children = childrenOf(graph);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const lines = ["digraph workflow {", "  compound=true;", "  rankdir=TB;", '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];'];
  /** A node to attach a cluster's edges to: its first leaf. */
  const anchor = (id: string): string | undefined => {
    let cur = id;
    for (let guard = 0; guard <= graph.nodes.length; guard++) {
      const kids = children.get(cur);
      if (!kids || kids.length === 0) return ids.get(cur);
      cur = kids[0].id;
    }
    return undefined;
  };
  const emit = (node: GraphNode, indent: string) => {
    const id = ids.get(node.id)!;
    const label = nodeLines(node).join("\n");
    const kids = children.get(node.id);
    const colour = node.kind === "missing" || node.findings.errors > 0 ? "#d1242f" : node.findings.warnings > 0 ? "#bf8700" : undefined;
    if (kids && kids.length > 0) {
      lines.push(`${indent}subgraph cluster_${id} {`);
      lines.push(`${indent}  label=${dotString(label)};`);
      lines.push(`${indent}  style="rounded,dashed";`);
      if (colour) lines.push(`${indent}  color="${colour}";`);
      for (const k of kids) emit(k, `${indent}  `);
      lines.push(`${indent}}`);
      return;
    }
    const attrs = [`label=${dotString(label)}`];
    if (node.kind === "end") attrs.push("shape=doublecircle");
    else if (node.kind === "missing") attrs.push('style="dashed"');
    else if (node.uses === "decision") attrs.push("shape=diamond", 'style=""');
    if (colour) attrs.push(`color="${colour}"`, "penwidth=2");
    if (node.findings.messages.length > 0) attrs.push(`tooltip=${dotString(node.findings.messages.join("\n"))}`);
    lines.push(`${indent}${id} [${attrs.join(", ")}];`);
  };
  for (const n of children.get("") ?? []) emit(n, "  ");
  for (const e of graph.edges) {
    const from = anchor(e.from);
    const to = anchor(e.to);
    if (from === undefined || to === undefined) continue;
    const attrs: string[] = [];
    if (e.label !== undefined && e.label !== "") attrs.push(`label=${dotString(clip(e.label, 40))}`);
    if (e.back || e.dangling) attrs.push('style="dashed"');
    if (e.back) attrs.push("constraint=false");
    if (e.kind !== "needs") attrs.push("penwidth=1.5");
    if (children.get(e.from)?.length) attrs.push(`ltail=cluster_${ids.get(e.from)}`);
    if (children.get(e.to)?.length) attrs.push(`lhead=cluster_${ids.get(e.to)}`);
    // Graphviz cannot clip an edge between a cluster and a node inside it; such an edge keeps its anchor.
    if (from === to || isInside(byId, e.from, e.to) || isInside(byId, e.to, e.from)) {
      const keep = attrs.filter((a) => !a.startsWith("ltail") && !a.startsWith("lhead"));
      attrs.length = 0;
      attrs.push(...keep);
    }
    lines.push(`  ${from} -> ${to}${attrs.length > 0 ? ` [${attrs.join(", ")}]` : ""};`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

function isInside(byId: Map<string, GraphNode>, id: string, container: string): boolean {
  let n = byId.get(id);
  for (let guard = 0; n && n.parent !== undefined && guard <= byId.size; guard++) {
    if (n.parent === container) return true;
    n = byId.get(n.parent);
  }
  return false;
}

function childrenOf(graph: WorkflowGraph): Map<string, GraphNode[]> {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const children = new Map<string, GraphNode[]>();
  for (const n of graph.nodes) {
    const scope = n.parent !== undefined && ids.has(n.parent) ? n.parent : "";
    const list = children.get(scope);
    if (list) list.push(n);
    else children.set(scope, [n]);
  }
  return children;
}

// ---- SVG -----------------------------------------------------------------------------------------

/** Text and attribute values in XML: the five special characters, and characters XML 1.0 forbids dropped. */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const num = (x: number) => (Math.round(x * 10) / 10).toString();

/**
 * A standalone SVG picture (no scripts, no external resources, no fonts to fetch) with theme-neutral
 * colours: grey strokes and text that read on light and dark backgrounds, red for errors, amber for
 * warnings; each kind of edge drawn as the graph view draws it (EDGE_STYLE); each node's findings in its <title>.
 */
export function toSvg(graph: WorkflowGraph, layout: GraphLayout = layoutGraph(graph)): string {
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`);
  out.push("<defs>");
  for (const [look, style] of Object.entries(EDGE_STYLE)) {
    out.push(`<marker id="arrow-${look}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="${style.colour}"/></marker>`);
  }
  out.push("</defs>");
  const laid = new Map(layout.nodes.map((n) => [n.id, n]));
  // containers first, outermost first, so their bodies are drawn over them
  const byId = new Map(graph.nodes.map((m) => [m.id, m]));
  const depth = (n: GraphNode) => {
    let d = 0;
    for (let p = n.parent; p !== undefined && d <= graph.nodes.length; p = byId.get(p)?.parent) d++;
    return d;
  };
  const parents = new Set(graph.nodes.map((m) => m.parent));
  const containers = graph.nodes.filter((n) => n.container && parents.has(n.id));
  const isContainer = new Set(containers.map((n) => n.id));
  containers.sort((a, b) => depth(a) - depth(b));
  for (const node of containers) {
    const b = laid.get(node.id);
    if (!b) continue;
    const stroke = strokeOf(node);
    out.push(`<g class="node container" data-id="${xmlEscape(node.id)}">`);
    out.push(`<title>${xmlEscape(titleOf(node))}</title>`);
    out.push(`<rect x="${num(b.x)}" y="${num(b.y)}" width="${num(b.width)}" height="${num(b.height)}" rx="8" fill="#8881" stroke="${stroke}" stroke-width="${stroke === GREY ? 1 : 2}" stroke-dasharray="6 3"/>`);
    nodeLines(node).forEach((line, k) => {
      out.push(`<text x="${num(b.x + 10)}" y="${num(b.y + 18 + k * LINE_HEIGHT)}" fill="${TEXT}"${k === 0 ? ' font-weight="bold"' : ""}>${xmlEscape(line)}</text>`);
    });
    out.push("</g>");
  }
  for (const e of layout.edges) {
    const edge = graph.edges[e.index];
    if (e.points.length < 2) continue;
    out.push(edgeSvg(edge, e.points, e.labelAt));
  }
  for (const node of graph.nodes) {
    if (isContainer.has(node.id)) continue;
    const b = laid.get(node.id);
    if (!b) continue;
    out.push(nodeSvg(node, b));
  }
  out.push("</svg>");
  return out.join("\n") + "\n";
}

const GREY = "#888";
const TEXT = "#777";
const RED = "#d1242f";
const AMBER = "#bf8700";

function strokeOf(node: GraphNode): string {
  if (node.kind === "missing" || node.findings.errors > 0) return RED;
  if (node.findings.warnings > 0) return AMBER;
  return GREY;
}

function titleOf(node: GraphNode): string {
  const head = node.kind === "missing" ? `${node.label}: no step has this id` : node.kind === "end" ? "end of scope" : `${node.label} (${node.uses ?? "no uses"})`;
  return [head, ...node.findings.messages].join("\n");
}

function nodeSvg(node: GraphNode, b: { x: number; y: number; width: number; height: number }): string {
  const stroke = strokeOf(node);
  const width = stroke === GREY ? 1 : 2;
  const parts = [`<g class="node" data-id="${xmlEscape(node.id)}">`, `<title>${xmlEscape(titleOf(node))}</title>`];
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  if (node.kind === "end") {
    parts.push(`<ellipse cx="${num(cx)}" cy="${num(cy)}" rx="${num(b.width / 2)}" ry="${num(b.height / 2)}" fill="none" stroke="${stroke}" stroke-width="2"/>`);
  } else if (node.uses === "decision" && node.kind === "step") {
    parts.push(`<path d="M${num(b.x + 10)},${num(b.y)}H${num(b.x + b.width - 10)}L${num(b.x + b.width)},${num(cy)}L${num(b.x + b.width - 10)},${num(b.y + b.height)}H${num(b.x + 10)}L${num(b.x)},${num(cy)}Z" fill="#8881" stroke="${stroke}" stroke-width="${width}"/>`);
  } else {
    const dash = node.kind === "missing" ? ' stroke-dasharray="4 3"' : "";
    parts.push(`<rect x="${num(b.x)}" y="${num(b.y)}" width="${num(b.width)}" height="${num(b.height)}" rx="${node.uses === "ai.generate" ? 10 : 3}" fill="#8881" stroke="${stroke}" stroke-width="${width}"${dash}/>`);
  }
  const lines = nodeLines(node);
  // a decision's case list takes the bottom of its box (layout.ts sized it): its lines centre above it
  const rows = caseRows(node);
  const rowsTop = b.y + b.height - rows.length * CASE_ROW_HEIGHT - CASE_ROWS_BOTTOM;
  const lineCentre = rows.length > 0 ? (b.y + rowsTop) / 2 : cy;
  const top = lineCentre - (lines.length * LINE_HEIGHT) / 2 + LINE_HEIGHT - 4;
  lines.forEach((line, k) => {
    parts.push(`<text x="${num(cx)}" y="${num(top + k * LINE_HEIGHT)}" text-anchor="middle" fill="${k === 0 ? TEXT : GREY}"${k === 0 ? ' font-weight="bold"' : ' font-size="11"'}>${xmlEscape(line)}</text>`);
  });
  rows.forEach((row, k) => {
    parts.push(`<text x="${num(b.x + 12)}" y="${num(rowsTop + k * CASE_ROW_HEIGHT + CASE_ROW_HEIGHT - 5)}" fill="${GREY}" font-size="11"${row.kind === "case" ? "" : ' font-style="italic"'}><title>${xmlEscape(row.title)}</title>${xmlEscape(row.text)}</text>`);
  });
  if (node.findings.errors > 0) {
    parts.push(`<circle cx="${num(b.x + b.width)}" cy="${num(b.y)}" r="9" fill="${RED}"/>`);
    parts.push(`<text x="${num(b.x + b.width)}" y="${num(b.y + 4)}" text-anchor="middle" fill="#fff" font-size="10">${node.findings.errors > 99 ? "99+" : node.findings.errors}</text>`);
  }
  parts.push("</g>");
  return parts.join("\n");
}

/**
 * The view's look per kind of edge (labels.ts edgeLook), in colours that read on light and dark pages
 * alike (3:1 or more against white and against #1e1e1e): needs thin grey, cases blue, the default route
 * blue and dashed, loops orange dash-dot, a reference to no step red dotted.
 */
const EDGE_STYLE: Record<EdgeLook, { colour: string; width: number; dash?: string }> = {
  needs: { colour: GREY, width: 1 },
  case: { colour: "#3b82f6", width: 1.6 },
  default: { colour: "#3b82f6", width: 1.6, dash: "7 4" },
  loop: { colour: "#d97706", width: 1.6, dash: "9 3 2 3" },
  dangling: { colour: RED, width: 1.6, dash: "2 3" },
};

function edgeSvg(edge: GraphEdge, points: Array<{ x: number; y: number }>, labelAt: { x: number; y: number } | undefined): string {
  const look = edgeLook(edge);
  const style = EDGE_STYLE[look];
  const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
  const d = points.map((p, k) => `${k === 0 ? "M" : "L"}${num(p.x)},${num(p.y)}`).join("");
  const parts = [`<g class="edge ${edge.kind}${edge.back ? " back" : ""} look-${look}">`];
  parts.push(`<path d="${d}" fill="none" stroke="${style.colour}" stroke-width="${style.width}"${dash} marker-end="url(#arrow-${look})"/>`);
  if (edge.label !== undefined && edge.label !== "" && labelAt) {
    const text = clip(edge.label, 40);
    const w = Array.from(text).length * 6.5 + 8;
    parts.push(`<rect x="${num(labelAt.x - w / 2)}" y="${num(labelAt.y - 8)}" width="${num(w)}" height="16" rx="3" fill="#8882"/>`);
    parts.push(`<text x="${num(labelAt.x)}" y="${num(labelAt.y + 4)}" text-anchor="middle" fill="${TEXT}" font-size="11">${xmlEscape(text)}</text>`);
  }
  parts.push("</g>");
  return parts.join("\n");
}
