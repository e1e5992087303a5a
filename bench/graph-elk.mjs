// The same graph laid out with elkjs (layered, hierarchical), only to compare it with the dagre layout
// the product uses (docs/graph.md): same node and label sizes, same direction, back edges reversed.
// elkjs is a devDependency for this comparison; nothing in the product loads it.
import { require } from "./lib.mjs";

let elk;
/** Lays out `graph` (the model) with elkjs; resolves to the number of positioned nodes. */
export async function elkLayout(graph, sizes) {
  if (!elk) {
    const ELK = require("elkjs/lib/elk.bundled.js");
    elk = new ELK();
  }
  const children = new Map([["", []]]);
  const byId = new Map();
  for (const node of graph.nodes) {
    const size = node.container ? {} : sizes.nodeSize(node);
    const n = { id: node.id, ...size, children: [], edges: [] };
    byId.set(node.id, n);
    children.set(node.id, n.children);
  }
  for (const node of graph.nodes) {
    const list = node.parent !== undefined && byId.has(node.parent) ? children.get(node.parent) : children.get("");
    list.push(byId.get(node.id));
  }
  const edges = [];
  graph.edges.forEach((edge, i) => {
    if (!byId.has(edge.from) || !byId.has(edge.to)) return;
    const [s, t] = edge.back ? [edge.to, edge.from] : [edge.from, edge.to];
    const label = sizes.labelSize(edge);
    edges.push({ id: `e${i}`, sources: [s], targets: [t], labels: label.width > 0 ? [{ text: edge.label, ...label }] : [] });
  });
  const root = {
    id: "[root]",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.hierarchyHandling": "INCLUDE_CHILDREN",
      "elk.spacing.nodeNode": "24",
      "elk.layered.spacing.nodeNodeBetweenLayers": "40",
    },
    children: children.get(""),
    edges,
  };
  const out = await elk.layout(root);
  let count = 0;
  const walk = (n) => { count++; for (const c of n.children ?? []) walk(c); };
  walk(out);
  return count - 1;
}
