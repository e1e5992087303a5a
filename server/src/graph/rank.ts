// Ranking for big scopes (layout.ts): which layer each node goes in, given to dagre as its `ranker`
// function. The method is dagre's "tight-tree" (longest path, then a feasible tree of tight edges grown by
// shifting it along the edge of least slack, Gansner et al. 1993, section 2.3), on flat arrays: dagre's
// own runs on graph objects and was a sixth of the layout time at 1,000 steps (docs/graph.md). Scopes
// of up to FAST_RANKING_ABOVE nodes keep dagre's network simplex, which also balances edge lengths.

/** The part of a graphlib graph the ranking reads and writes (dagre's non-compound graph at the rank step). */
export interface RankGraph {
  nodes(): string[];
  node(v: string): { rank?: number };
  edges(): Array<{ v: string; w: string; name?: string }>;
  edge(e: { v: string; w: string; name?: string }): { minlen?: number } | undefined;
}

/** Set `rank` on every node so that each edge v → w has rank(w) − rank(v) ≥ its minlen, with edges kept short. */
export function rankTightTree(graph: RankGraph): void {
  const ids = graph.nodes();
  const n = ids.length;
  if (n === 0) return;
  const index = new Map<string, number>();
  ids.forEach((v, i) => index.set(v, i));
  const edges = graph.edges();
  const m = edges.length;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const minlen = new Float64Array(m);
  edges.forEach((e, k) => {
    from[k] = index.get(e.v)!;
    to[k] = index.get(e.w)!;
    minlen[k] = graph.edge(e)?.minlen ?? 1;
  });
  const out = incidence(n, from);
  const incident = incidence(n, from, to);
  const rank = longestPath(n, to, minlen, out);

  // Grow a tree of tight edges (slack 0) from node 0; when it cannot grow, move the whole tree by the
  // least slack of an edge leaving it, which makes that edge tight. Every node joins once.
  const inTree = new Uint8Array(n);
  const treeNodes: number[] = [];
  const stack: number[] = [];
  const grow = (start: number) => {
    stack.push(start);
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (inTree[v]) continue;
      inTree[v] = 1;
      treeNodes.push(v);
      for (let i = incident.start[v]; i < incident.start[v + 1]; i++) {
        const k = incident.edge[i];
        const u = from[k] === v ? to[k] : from[k];
        if (!inTree[u] && rank[to[k]] - rank[from[k]] - minlen[k] === 0) stack.push(u);
      }
    }
  };
  // each component of the graph separately (dagre's scopes are connected, but be safe)
  for (let root = 0; root < n; root++) {
    if (inTree[root]) continue;
    grow(root);
    for (;;) {
      let best = -1;
      let bestSlack = Infinity;
      for (let k = 0; k < m; k++) {
        if (inTree[from[k]] === inTree[to[k]]) continue;
        const slack = rank[to[k]] - rank[from[k]] - minlen[k];
        if (slack < bestSlack) { bestSlack = slack; best = k; }
      }
      if (best < 0) break;
      const delta = inTree[from[best]] ? bestSlack : -bestSlack;
      for (const v of treeNodes) rank[v] += delta;
      grow(inTree[from[best]] ? to[best] : from[best]);
    }
  }
  for (let i = 0; i < n; i++) graph.node(ids[i]).rank = rank[i];
}

interface Incidence { start: Int32Array; edge: Int32Array }

/** For each node, the edges at it: those it starts (`b` omitted) or those it starts or ends. */
function incidence(n: number, a: Int32Array, b?: Int32Array): Incidence {
  const start = new Int32Array(n + 1);
  for (let k = 0; k < a.length; k++) {
    start[a[k] + 1]++;
    if (b && b[k] !== a[k]) start[b[k] + 1]++;
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const edge = new Int32Array(start[n]);
  for (let k = 0; k < a.length; k++) {
    edge[fill[a[k]]++] = k;
    if (b && b[k] !== a[k]) edge[fill[b[k]]++] = k;
  }
  return { start, edge };
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
