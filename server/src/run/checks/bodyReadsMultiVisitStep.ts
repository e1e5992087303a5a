// lwir.body_reads_multi_visit_step (runtime semantics 6.4; section 16 item 3): a branch sees the top-level
// steps its parallel step needs under their ids, but a step with maxVisits above 1 is stored under
// `ID.visit[N]`, so a body step never finds it: the read fails ("references incomplete step"), or inside a
// coalesce always gives the fallback. (A top-level step the parallel step does not need is the
// validator's step.missing_dependency already.)
import type { RunList } from "./lists";
import { quoted, type RunNotice } from "./notice";
import { resolvedStrings, stepReads } from "./reads";

export const BODY_READS_MULTI_VISIT_STEP = "lwir.body_reads_multi_visit_step";

export function bodyReadsMultiVisitStep(lists: readonly RunList[]): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    const parent = list.parent;
    if (!parent) continue;
    for (const reader of list.steps) {
      for (const s of resolvedStrings(reader.step, reader.segments)) {
        for (const read of stepReads(s.value)) {
          if (list.byId.has(read.stepId) || !parent.needs.includes(read.stepId)) continue;
          const outer = parent.list.byId.get(read.stepId);
          if (!outer || !isMultiVisit(outer.step.maxVisits)) continue;
          out.push({
            code: BODY_READS_MULTI_VISIT_STEP,
            segments: s.segments,
            start: read.start,
            end: read.end,
            message: `The branches of ${quoted(parent.id)} never see ${quoted(outer.id)}: it can run more than once (maxVisits ${String(outer.step.maxVisits)}), ` +
              "and a branch sees only the single-visit steps its parallel step needs, so this read never gives its output.",
            related: [{ segments: [...outer.segments, "maxVisits"], message: `${quoted(outer.id)} can run more than once.` }],
          });
        }
      }
    }
  }
  return out;
}

/** In a valid document maxVisits is an integer from 1 to 100 when present. */
function isMultiVisit(maxVisits: unknown): boolean {
  return typeof maxVisits === "number" && maxVisits > 1;
}
