// Ranking for big scopes (layout.ts): which layer each node goes in, given to dagre as its `ranker`
// function. The method is dagre's own for small scopes, network simplex (Gansner, Koutsofios, North and
// Vo 1993, section 2): longest path, a feasible tree of tight edges, then pivots that exchange a tree
// edge of negative cut value for the non-tree edge of least slack across the same cut, until no cut
// value is negative, which minimises the total weighted edge length. Here it runs on flat arrays:
// dagre's own takes seconds on graph objects at 1,000 steps, which is why big scopes used its quicker
// "tight-tree" (the feasible tree alone) before. Shorter edges mean fewer dummy nodes for dagre's later
// steps, so this also makes the rest of the layout cheaper (docs/graph.md).

import { incidence, type Incidence } from "./incidence";

/** The part of a graphlib graph the ranking reads and writes (dagre's non-compound graph at the rank step). */
export interface RankGraph {
  nodes(): string[];
  node(v: string): { rank?: number };
  edges(): Array<{ v: string; w: string; name?: string }>;
  edge(e: { v: string; w: string; name?: string }): { minlen?: number; weight?: number } | undefined;
}

/**
 * A bound on the pivots' work: each pivot visits every node and edge a few times (about 50 ns for each
 * here), so this is about a second at most. Pivots needed on generated workflows: 95 at 1,000 steps
 * (7,400 allowed), 399 at 5,000 (1,450 allowed). An input that needs more, or a pivot cycle, ends with
 * valid but longer edges instead of hanging the layout.
 */
const PIVOT_WORK = 2e7;

/**
 * Set `rank` on every node so that each edge v → w has rank(w) − rank(v) ≥ its minlen, and the sum over
 * edges of weight × length is as small as network simplex makes it within `maxPivots` pivots (every
 * ranking along the way is valid, so stopping early only leaves some edges longer; PIVOT_WORK sets the
 * default bound).
 */
export function rankNetworkSimplex(graph: RankGraph, options: { maxPivots?: number } = {}): void {
  const ids = graph.nodes();
  const n = ids.length;
  if (n === 0) return;
  const index = new Map<string, number>();
  ids.forEach((v, i) => index.set(v, i));
  // Parallel edges merged (weights added, the longest minlen), as the method assumes a simple graph.
  const merged = new Map<number, number>();
  const fromList: number[] = [];
  const toList: number[] = [];
  const minlenList: number[] = [];
  const weightList: number[] = [];
  for (const e of graph.edges()) {
    const v = index.get(e.v)!;
    const w = index.get(e.w)!;
    if (v === w) continue;
    const label = graph.edge(e);
    const minlen = label?.minlen ?? 1;
    const weight = label?.weight ?? 1;
    const key = v * n + w;
    const at = merged.get(key);
    if (at === undefined) {
      merged.set(key, fromList.length);
      fromList.push(v);
      toList.push(w);
      minlenList.push(minlen);
      weightList.push(weight);
    } else {
      minlenList[at] = Math.max(minlenList[at], minlen);
      weightList[at] += weight;
    }
  }
  const from = Int32Array.from(fromList);
  const to = Int32Array.from(toList);
  const minlen = Float64Array.from(minlenList);
  const weight = Float64Array.from(weightList);
  const m = from.length;
  const out = incidence(n, from);
  const incident = incidence(n, from, to);
  const rank = longestPath(n, to, minlen, out);
  const slack = (k: number) => rank[to[k]] - rank[from[k]] - minlen[k];

  // The feasible tree: grow tight edges (slack 0) from a root; when the tree cannot grow, move it by
  // the least slack of an edge leaving it, which makes that edge tight. treeEdge marks its edges.
  const treeEdge = new Uint8Array(m);
  const inTree = new Uint8Array(n);
  const via = new Int32Array(n).fill(-1);
  const components: number[] = [];
  const stack: number[] = [];
  for (let root = 0; root < n; root++) {
    if (inTree[root]) continue;
    components.push(root);
    const members: number[] = [];
    const grow = (start: number) => {
      stack.push(start);
      while (stack.length > 0) {
        const v = stack.pop()!;
        if (inTree[v]) continue;
        inTree[v] = 1;
        members.push(v);
        if (via[v] >= 0) treeEdge[via[v]] = 1;
        for (let i = incident.start[v]; i < incident.start[v + 1]; i++) {
          const k = incident.edge[i];
          const u = from[k] === v ? to[k] : from[k];
          if (!inTree[u] && slack(k) === 0) {
            via[u] = k;
            stack.push(u);
          }
        }
      }
    };
    grow(root);
    for (;;) {
      let best = -1;
      let least = Infinity;
      for (const v of members) {
        for (let i = incident.start[v]; i < incident.start[v + 1]; i++) {
          const k = incident.edge[i];
          if (inTree[from[k]] === inTree[to[k]]) continue;
          const s = slack(k);
          if (s < least) { least = s; best = k; }
        }
      }
      if (best < 0) break;
      const delta = inTree[from[best]] ? least : -least;
      for (const v of members) rank[v] += delta;
      const joining = inTree[from[best]] ? to[best] : from[best];
      via[joining] = best;
      grow(joining);
    }
  }

  pivot(n, m, from, to, minlen, weight, incident, rank, treeEdge, components, options.maxPivots ?? Math.max(50, Math.floor(PIVOT_WORK / (n + m))));
  for (let i = 0; i < n; i++) graph.node(ids[i]).rank = rank[i];
}

/** Network simplex's pivots on a feasible tree (treeEdge), until no tree edge has a negative cut value. */
function pivot(
  n: number, m: number, from: Int32Array, to: Int32Array, minlen: Float64Array, weight: Float64Array,
  incident: Incidence, rank: Float64Array, treeEdge: Uint8Array, roots: number[], maxPivots: number,
): void {
  const low = new Int32Array(n);
  const lim = new Int32Array(n);
  const parentEdge = new Int32Array(n);
  const order: number[] = []; // postorder: children before parents
  const cut = new Float64Array(m);
  const next = new Int32Array(n);
  const stack: number[] = [];

  // low/lim: postorder numbers, so u is below v in the tree when low[v] <= lim[u] <= lim[v].
  const number = () => {
    order.length = 0;
    let counter = 1;
    parentEdge.fill(-1);
    const seen = new Uint8Array(n);
    for (const root of roots) {
      stack.push(root);
      seen[root] = 1;
      low[root] = counter;
      next[root] = incident.start[root];
      while (stack.length > 0) {
        const v = stack[stack.length - 1];
        let descended = false;
        while (next[v] < incident.start[v + 1]) {
          const k = incident.edge[next[v]++];
          if (!treeEdge[k]) continue;
          const u = from[k] === v ? to[k] : from[k];
          if (seen[u]) continue;
          seen[u] = 1;
          parentEdge[u] = k;
          low[u] = counter;
          next[u] = incident.start[u];
          stack.push(u);
          descended = true;
          break;
        }
        if (descended) continue;
        stack.pop();
        lim[v] = counter++;
        order.push(v);
      }
    }
  };

  // The cut value of a tree edge: the weight of the edges crossing its cut in its direction, minus the
  // weight of those crossing against it, computed bottom up from the children's cut values.
  const cutValues = () => {
    for (const child of order) {
      const k0 = parentEdge[child];
      if (k0 < 0) continue;
      const childIsTail = from[k0] === child;
      let value = weight[k0];
      for (let i = incident.start[child]; i < incident.start[child + 1]; i++) {
        const k = incident.edge[i];
        if (k === k0) continue;
        const isOut = from[k] === child;
        const pointsToHead = isOut === childIsTail;
        value += pointsToHead ? weight[k] : -weight[k];
        const other = isOut ? to[k] : from[k];
        if (treeEdge[k] && parentEdge[other] === k) value += pointsToHead ? -cut[k] : cut[k];
      }
      cut[k0] = value;
    }
  };

  // Ranks from the tree: each child one tight edge away from its parent.
  const reRank = () => {
    for (let i = order.length - 1; i >= 0; i--) {
      const v = order[i];
      const k = parentEdge[v];
      if (k < 0) continue;
      rank[v] = from[k] === v ? rank[to[k]] - minlen[k] : rank[from[k]] + minlen[k];
    }
  };

  number();
  cutValues();
  for (let pivots = 0; pivots < maxPivots; pivots++) {
    let leave = -1;
    for (let k = 0; k < m; k++) if (treeEdge[k] && cut[k] < 0) { leave = k; break; }
    if (leave < 0) return;
    // The side of the cut below the leaving edge, and which way an entering edge must cross it.
    const lower = lim[from[leave]] < lim[to[leave]] ? from[leave] : to[leave];
    const flip = lower === to[leave];
    const below = (u: number) => low[lower] <= lim[u] && lim[u] <= lim[lower];
    let enter = -1;
    let least = Infinity;
    for (let k = 0; k < m; k++) {
      if (treeEdge[k] || k === leave) continue;
      if (flip === below(from[k]) && flip !== below(to[k])) {
        const s = rank[to[k]] - rank[from[k]] - minlen[k];
        if (s < least) { least = s; enter = k; }
      }
    }
    if (enter < 0) return;
    treeEdge[leave] = 0;
    treeEdge[enter] = 1;
    number();
    cutValues();
    reRank();
  }
}

/** Each node as high as its successors allow: rank(v) = min over v → w of rank(w) − minlen, sinks at 0. */
function longestPath(n: number, to: Int32Array, minlen: Float64Array, out: Incidence): Float64Array {
  const rank = new Float64Array(n);
  const done = new Uint8Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const next = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if (done[s]) continue;
    stack.push(s);
    onStack[s] = 1;
    next[s] = out.start[s];
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      if (next[v] < out.start[v + 1]) {
        const w = to[out.edge[next[v]++]];
        // a node on the stack again would close a cycle (dagre removed cycles before ranking): skipped
        if (!done[w] && !onStack[w]) { stack.push(w); onStack[w] = 1; next[w] = out.start[w]; }
        continue;
      }
      stack.pop();
      onStack[v] = 0;
      let r = Infinity;
      for (let i = out.start[v]; i < out.start[v + 1]; i++) {
        const k = out.edge[i];
        r = Math.min(r, rank[to[k]] - minlen[k]);
      }
      rank[v] = r === Infinity ? 0 : r;
      done[v] = 1;
    }
  }
  return rank;
}
