// Long step lists. `{{ steps.` in a 5,000-step workflow could offer 5,000 ids; nobody scrolls them, and
// building, sending and reading them is most of what completion costs there. Past STEP_ITEMS_LIMIT a list
// offers the steps that match what is typed, nearest the step being edited first, and is marked
// incomplete (LSP `isIncomplete`), so the client asks again as the user types and the window follows.
import type { ListFacts, StepFacts } from "./stepFacts";

/** At most this many step ids in one list. */
export const STEP_ITEMS_LIMIT = 200;

export interface StepWindow {
  steps: StepFacts[];
  /** Steps were left out: the list must go out with `isIncomplete: true`. */
  truncated: boolean;
}

/**
 * The steps to offer, in their given order. Up to `limit` all of them. Past it, those whose id matches
 * `typed` (its characters in order, ignoring case: looser than any client's own filter, so nothing a
 * client would show is missing), ranked: `pinned` ones first (already in needs, the step itself), then
 * the id typed in full, then ids starting with what is typed, then the rest; within each, steps of
 * enclosing lists first, then the steps of `list` (the edited step's) nearest `center` (the edited
 * step's index in it; earlier ones first at equal distance).
 */
export function stepWindow(
  candidates: readonly StepFacts[],
  opts: { typed: string; list: ListFacts | undefined; center: number | undefined; pinned: (s: StepFacts) => boolean; limit?: number },
): StepWindow {
  const limit = opts.limit ?? STEP_ITEMS_LIMIT;
  if (candidates.length <= limit) return { steps: [...candidates], truncated: false };
  const typed = opts.typed.toLowerCase();
  const matching: number[] = [];
  for (let i = 0; i < candidates.length; i++) if (subsequence(typed, candidates[i].id)) matching.push(i);
  if (matching.length > limit) {
    const center = opts.center;
    const rank = new Float64Array(candidates.length);
    for (const i of matching) {
      const s = candidates[i];
      const id = s.id.toLowerCase();
      const tier = opts.pinned(s) ? 0 : id === typed ? 1 : typed.length > 0 && id.startsWith(typed) ? 2 : 3;
      const at = s.segments[s.segments.length - 1];
      const far = s.list !== opts.list || center === undefined || typeof at !== "number" ? 0 : 1 + 2 * Math.abs(at - center) + (at > center ? 1 : 0);
      rank[i] = tier * 2 ** 32 + far;
    }
    matching.sort((a, b) => rank[a] - rank[b] || a - b);
    matching.length = limit;
    matching.sort((a, b) => a - b);
  }
  return { steps: matching.map((i) => candidates[i]), truncated: true };
}

/** `pattern` (lower case) occurs in `word` in order, ignoring case. */
export function subsequence(pattern: string, word: string): boolean {
  if (pattern.length === 0) return true;
  const w = word.toLowerCase();
  let k = 0;
  for (let i = 0; i < w.length && k < pattern.length; i++) if (w.charCodeAt(i) === pattern.charCodeAt(k)) k++;
  return k === pattern.length;
}
