// lwir.needs_unchosen_target (runtime semantics 10; section 16 item 12): a step needs a decision target
// without needs of its own (with needs, it is the validator's lwir.decision_target_referenced_by_needs).
// When the decision chooses another step, that target is dropped and never runs, so neither does the
// step that needs it: the run then fails with "No runnable LWIR step found" unless it ends first.
//
// Said only where that is certain, at the top level: the decision is the first one to run (before it
// every step runs in document order, whatever the data) and runs once (maxVisits 1), the target did not
// already run before it (a target is held back only once its decision's needs are met), and no other
// decision may choose the target.
import { END, isObject } from "../../lwir/validate";
import type { RunList, RunStep } from "./lists";
import { quoted, type RunNotice } from "./notice";

export const NEEDS_UNCHOSEN_TARGET = "lwir.needs_unchosen_target";

export function needsUnchosenTarget(lists: readonly RunList[]): RunNotice[] {
  const top = lists.find((l) => !l.parent);
  if (!top || top.targets.size === 0) return [];
  const prefix = firstDecision(top);
  if (!prefix) return [];
  const { decision, ran } = prefix;
  const maxVisits = decision.step.maxVisits;
  if (maxVisits !== undefined && maxVisits !== 1) return [];
  const outcomes = outcomesOf(decision);
  const out: RunNotice[] = [];
  for (const step of top.steps) {
    if (top.targets.has(step.id) || !Array.isArray(step.step.needs)) continue;
    step.step.needs.forEach((need, k) => {
      if (typeof need !== "string" || !outcomes.includes(need) || ran.has(need) || top.targets.get(need)?.length !== 1) return;
      const target = top.byId.get(need);
      if (!target || target.needs.length > 0 || (Array.isArray(target.step.needs) && target.step.needs.length > 0)) return;
      const other = outcomes.find((o) => o !== need && o !== END);
      if (other === undefined) return;
      out.push({
        code: NEEDS_UNCHOSEN_TARGET,
        segments: [...step.segments, "needs", k],
        message: `${quoted(step.id)} needs ${quoted(need)}, which runs only when the decision ${quoted(decision.id)} chooses it: ` +
          `whenever ${quoted(decision.id)} chooses ${quoted(other)} instead, ${quoted(step.id)} never runs (nor does any step that needs it).`,
        related: [{ segments: decision.segments, message: `${quoted(decision.id)} chooses between ${outcomes.map(quoted).join(", ")}.` }],
      });
    });
  }
  return out;
}

/** The decision's outcomes in order: each case's target, then the default ("end" included). */
function outcomesOf(decision: RunStep): string[] {
  const w = isObject(decision.step.with) ? decision.step.with : {};
  const out: string[] = [];
  if (Array.isArray(w.cases)) for (const c of w.cases) if (isObject(c) && typeof c.to === "string" && !out.includes(c.to)) out.push(c.to);
  if (typeof w.default === "string" && !out.includes(w.default)) out.push(w.default);
  return out;
}

/**
 * The scheduler (runtime semantics 10, step 2) until the first decision runs: the first step in
 * document order whose needs have completed and that no decision with all its needs met holds back.
 * Up to there nothing depends on data. Undefined when no decision is reached.
 */
function firstDecision(list: RunList): { decision: RunStep; ran: Set<string> } | undefined {
  const done = new Set<string>();
  const held = (s: RunStep) => (list.targets.get(s.id) ?? []).some((d) => d.needs.every((n) => done.has(n)));
  for (;;) {
    const next = list.steps.find((s) => !done.has(s.id) && s.needs.every((n) => done.has(n)) && !held(s));
    if (!next) return undefined;
    if (next.uses === "decision") return { decision: next, ran: done };
    done.add(next.id);
  }
}
