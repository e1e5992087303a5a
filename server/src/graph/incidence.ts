// Compressed adjacency for the layout's array-based steps (rank.ts, order.ts): the edges at each node,
// as edge indices grouped by node, built with one counting pass.

export interface Incidence { start: Int32Array; edge: Int32Array }

/** For each node, the edges at it: those it starts (`b` omitted) or those it starts or ends. */
export function incidence(n: number, a: Int32Array, b?: Int32Array): Incidence {
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
