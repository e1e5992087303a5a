// Where and in which style a new `needs` goes, for every edit that writes one: the add-needs quick fixes
// (edits.ts addNeedsEntries) and accepting a step reference in completion (completion.ts needsEdit), so
// the two put it in the same place. The rule: right after the step's `id` or `uses`, whichever is written
// last (the order of the step snippets: id, uses, needs); in YAML as a flow list (`needs: [a]`) unless the
// document writes its lists as block sequences.

/** The keys a new `needs` follows: it goes after the last of them written in the step. */
export const NEEDS_AFTER: readonly string[] = ["id", "uses"];

/** The member a new `needs` is written after: the last of `id`/`uses` in the text; undefined when neither is written. */
export function needsAnchor<T extends { key: string; keyStart: number }>(members: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const m of members) if (NEEDS_AFTER.includes(m.key) && (!best || m.keyStart > best.keyStart)) best = m;
  return best;
}

/**
 * Does this YAML document write lists of scalars in flow style (`[a, b]`)? Its `needs` decide; with
 * none, flow unless the only lists of scalars it has are block sequences (`- a` lines, not `- id: a`).
 */
export function yamlFlowLists(text: string): boolean {
  const needs = /^[ \t]*(?:-[ \t]+)?needs:[ \t]*(\[|#|$)/m.exec(text);
  if (needs) return needs[1] === "[";
  return /:[ \t]+\[/.test(text) || !/^[ \t]*-[ \t]+(?:"[^"\r\n]*"|'[^'\r\n]*'|[^\s#:{[\]"'][^:#\r\n]*)[ \t]*(?:#.*)?$/m.test(text);
}
