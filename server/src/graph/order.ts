// Crossing reduction for the layered layout: the order of the nodes within each rank, given to dagre
// through its `customOrder` hook (layout.ts). The heuristic is the classic one dagre itself uses, a
// depth-first initial order then barycentre sweeps, alternately downwards and upwards and alternately
// breaking ties to the left and to the right, keeping the order with the fewest crossings and stopping
// after four sweeps that find none fewer. It runs on flat arrays: dagre's own implementation builds a
// graph per rank and compares every pair of nodes of a rank, which made ordering half of the layout
// time at 1,000 steps (docs/graph.md).

import { incidence } from "./incidence";

/** The part of a graphlib graph the ordering reads and writes (dagre's graph after normalisation: every edge spans one rank). */
export interface OrderGraph {
  nodes(): string[];
  node(v: string): { rank?: number; order?: number };
  edges(): Array<{ v: string; w: string; name?: string }>;
  edge(e: { v: string; w: string; name?: string }): { weight?: number } | undefined;
}

/** Sweeps without improvement before stopping (as dagre), and a bound on all sweeps. */
const PATIENCE = 4;
const MAX_SWEEPS = 32;

/** Set `order` on every node of `graph`, rank by rank, to few edge crossings. Deterministic. */
export function orderLayers(graph: OrderGraph): void {
  const ids = graph.nodes();
  const n = ids.length;
  if (n === 0) return;
  const index = new Map<string, number>();
  ids.forEach((v, i) => index.set(v, i));
  const rank = new Int32Array(n);
  let maxRank = 0;
  for (let i = 0; i < n; i++) {
    rank[i] = graph.node(ids[i]).rank ?? 0;
    if (rank[i] > maxRank) maxRank = rank[i];
  }

  // Adjacency in both directions, as index/weight arrays (compressed rows).
  const edges = graph.edges();
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  const weight = new Float64Array(edges.length);
  edges.forEach((e, k) => {
    from[k] = index.get(e.v)!;
    to[k] = index.get(e.w)!;
    weight[k] = graph.edge(e)?.weight ?? 1;
  });
  const down = rows(n, from, to, weight); // successors
  const up = rows(n, to, from, weight); // predecessors

  // Initial order: depth first from the nodes of the lowest ranks, successors in edge order.
  const layers: number[][] = Array.from({ length: maxRank + 1 }, () => []);
  const seen = new Uint8Array(n);
  const byRank = Array.from({ length: n }, (_, i) => i).sort((a, b) => rank[a] - rank[b] || a - b);
  const stack: number[] = [];
  for (const start of byRank) {
    stack.push(start);
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen[v]) continue;
      seen[v] = 1;
      layers[rank[v]].push(v);
      for (let k = down.start[v + 1] - 1; k >= down.start[v]; k--) if (!seen[down.node[k]]) stack.push(down.node[k]);
    }
  }

  const pos = new Float64Array(n);
  const place = () => { for (const layer of layers) for (let i = 0; i < layer.length; i++) pos[layer[i]] = i; };
  place();
  let best = layers.map((l) => l.slice());
  let fewest = crossings(layers, down, pos);
  const bary = new Float64Array(n);
  for (let sweep = 0, stale = 0; stale < PATIENCE && sweep < MAX_SWEEPS && fewest > 0; sweep++, stale++) {
    const downwards = sweep % 2 === 1;
    const biasRight = sweep % 4 >= 2;
    const adj = downwards ? up : down;
    for (let r = downwards ? 1 : maxRank - 1; downwards ? r <= maxRank : r >= 0; r += downwards ? 1 : -1) {
      reorder(layers[r], adj, pos, bary, biasRight);
    }
    const count = crossings(layers, down, pos);
    if (count < fewest) {
      fewest = count;
      best = layers.map((l) => l.slice());
      stale = -1;
    }
  }
  for (const layer of best) for (let i = 0; i < layer.length; i++) graph.node(ids[layer[i]]).order = i;
}

interface Rows { start: Int32Array; node: Int32Array; weight: Float64Array }

/** For each a, its b's and weights, in edge order (incidence.ts's rows, read through). */
function rows(n: number, a: Int32Array, b: Int32Array, w: Float64Array): Rows {
  const { start, edge } = incidence(n, a);
  return { start, node: edge.map((k) => b[k]), weight: Float64Array.from(edge, (k) => w[k]) };
}

/**
 * Sort one rank by the barycentre of each node's neighbours in the fixed adjacent rank. Nodes with no
 * such neighbour keep their index; ties keep the current order, or reverse it when `biasRight`.
 */
function reorder(layer: number[], adj: Rows, pos: Float64Array, bary: Float64Array, biasRight: boolean): void {
  if (layer.length < 2) return;
  const sortable: number[] = [];
  const fixed: boolean[] = new Array(layer.length);
  for (let i = 0; i < layer.length; i++) {
    const v = layer[i];
    let sum = 0;
    let total = 0;
    for (let k = adj.start[v]; k < adj.start[v + 1]; k++) {
      sum += pos[adj.node[k]] * adj.weight[k];
      total += adj.weight[k];
    }
    fixed[i] = total === 0;
    if (total > 0) {
      bary[v] = sum / total;
      sortable.push(v);
    }
  }
  sortable.sort((a, b) => bary[a] - bary[b] || (biasRight ? pos[b] - pos[a] : pos[a] - pos[b]));
  let next = 0;
  for (let i = 0; i < layer.length; i++) if (!fixed[i]) layer[i] = sortable[next++];
  for (let i = 0; i < layer.length; i++) pos[layer[i]] = i;
}

/** Weighted crossings between every two adjacent ranks (accumulator tree, Barth, Jünger and Mutzel 2004). */
function crossings(layers: number[][], down: Rows, pos: Float64Array): number {
  let total = 0;
  for (let r = 1; r < layers.length; r++) {
    const south = layers[r].length;
    if (south < 2 || layers[r - 1].length < 1) continue;
    let first = 1;
    while (first < south) first <<= 1;
    const tree = new Float64Array(2 * first - 1);
    first -= 1;
    const ends: Array<[number, number]> = [];
    for (const v of layers[r - 1]) {
      const mine: Array<[number, number]> = [];
      for (let k = down.start[v]; k < down.start[v + 1]; k++) mine.push([pos[down.node[k]], down.weight[k]]);
      mine.sort((a, b) => a[0] - b[0]);
      for (const e of mine) ends.push(e);
    }
    for (const [at, w] of ends) {
      let i = at + first;
      tree[i] += w;
      let heavier = 0;
      while (i > 0) {
        if (i % 2 === 1) heavier += tree[i + 1];
        i = (i - 1) >> 1;
        tree[i] += w;
      }
      total += w * heavier;
    }
  }
  return total;
}
