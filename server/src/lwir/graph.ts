// Step graphs of one list: strongly connected components (Tarjan, iterative so a 5,000-step cycle
// cannot exhaust the stack) and reachability for the lastOutput/allVisits back-edge exemption.

/** Adjacency lists over nodes 0..n-1; duplicate edges are harmless. */
export type Graph = number[][];

/** Tarjan's strongly connected components. */
export function stronglyConnected(graph: Graph): number[][] {
  const n = graph.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const components: number[][] = [];
  let next = 0;
  // Explicit call stack: the node and how far through its edges we are.
  const callNode: number[] = [];
  const callEdge: number[] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(0);
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const v = callNode[top];
      const edges = graph[v];
      if (callEdge[top] < edges.length) {
        const w = edges[callEdge[top]++];
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(0);
        } else if (onStack[w]) {
          if (index[w] < low[v]) low[v] = index[w];
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component.reverse());
      }
    }
  }
  return components;
}

/** A component is a cycle when it has more than one node or a node with an edge to itself. */
export function isCycle(graph: Graph, component: number[]): boolean {
  if (component.length > 1) return true;
  const v = component[0];
  return graph[v].includes(v);
}

/** Is there a path of at least one edge from `from` to `to`? Breadth-first. */
export function reaches(graph: Graph, from: number, to: number): boolean {
  const seen = new Uint8Array(graph.length);
  const queue: number[] = [];
  for (const w of graph[from]) if (!seen[w]) { seen[w] = 1; queue.push(w); }
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    if (v === to) return true;
    for (const w of graph[v]) if (!seen[w]) { seen[w] = 1; queue.push(w); }
  }
  return false;
}

/**
 * Breadth-first from `from`: for each node reached by at least one edge, the node before it on a
 * shortest path (`from` itself when it is reached again, -1 when never). Walking back from a node gives
 * the shortest path to it.
 */
export function shortestPathParents(graph: Graph, from: number): Int32Array {
  const parent = new Int32Array(graph.length).fill(-1);
  const queue: number[] = [from];
  let fromReached = false;
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    for (const w of graph[v]) {
      if (w === from) {
        if (!fromReached) { fromReached = true; parent[from] = v; }
        continue;
      }
      if (parent[w] !== -1) continue;
      parent[w] = v;
      queue.push(w);
    }
  }
  return parent;
}

/** The nodes of a shortest path from `from` to `to` (both included), from shortestPathParents(graph, from); undefined when `to` is not reached. */
export function pathTo(parent: Int32Array, from: number, to: number): number[] | undefined {
  if (parent[to] === -1) return undefined;
  const path = [to];
  let v = parent[to];
  // at most one step per node: `from` reached again ends the walk
  while (v !== from && path.length <= parent.length) {
    path.push(v);
    v = parent[v];
    if (v === -1) return undefined;
  }
  path.push(from);
  return path.reverse();
}
