// lwir.needs_decision_step (runtime semantics 10, step 4; section 16 item 12): a decision step never counts
// as done for `needs`, so a step that needs one is never runnable. It still runs when a decision chooses
// it (a chosen target runs whatever its needs), so targets are left alone.
import type { RunList, RunStep } from "./lists";
import { quoted, type RunNotice } from "./notice";

export const NEEDS_DECISION_STEP = "lwir.needs_decision_step";

export function needsDecisionStep(lists: readonly RunList[]): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    for (const step of list.steps) {
      if (list.targets.has(step.id) || !Array.isArray(step.step.needs)) continue;
      step.step.needs.forEach((need, k) => {
        const decision = typeof need === "string" ? list.byId.get(need) : undefined;
        if (decision?.uses !== "decision") return;
        out.push({
          code: NEEDS_DECISION_STEP,
          segments: [...step.segments, "needs", k],
          message: `${quoted(step.id)} needs the decision step ${quoted(decision.id)}, and a decision never counts as done for needs: ` +
            `${quoted(step.id)} can never run. ${advice(decision)}`,
          related: [{ segments: decision.segments, message: `${quoted(decision.id)} is a decision step.` }],
        });
      });
    }
  }
  return out;
}

function advice(decision: RunStep): string {
  return decision.needs.length > 0
    ? `Name what ${quoted(decision.id)} needs instead (${decision.needs.map(quoted).join(", ")}), or make this step one of its targets.`
    : "Remove the entry, or make this step one of its targets.";
}
