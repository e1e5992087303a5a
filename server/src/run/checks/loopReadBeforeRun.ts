// lwir.loop_read_before_run (runtime semantics 6.5, 11; section 16 item 2): a loop member reads a member
// that runs after it (lastOutput/allVisits, which the validator allows on a loop). On its first visit that
// step has not run, so the read throws "references incomplete step" unless a coalesce around it turns it
// into undefined. Said only where that is certain: the read is evaluated on every visit (not behind a
// `||`/`&&` operand that may decide first, not a decision's later case), and the step read can only run
// after the reader (it depends on it through needs, and any decision that may start it or a step in
// between runs after the reader too).
import { decisionTargets as decisionTargetsOf } from "../../lwir/validate";
import { isCycle, stronglyConnected, type Graph } from "../../lwir/graph";
import type { RunList, RunStep } from "./lists";
import { quoted, type RunNotice } from "./notice";
import { resolvedStrings, stepReads } from "./reads";

export const LOOP_READ_BEFORE_RUN = "lwir.loop_read_before_run";

/** The cheap gate before a string is parsed: only these two read a step that runs later. */
const LATER_READ = /lastOutput|allVisits/;

export function loopReadBeforeRun(lists: readonly RunList[]): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    let dependents: Map<string, RunStep[]> | undefined;
    let loops: Map<string, number> | undefined;
    for (const reader of list.steps) {
      let after: Set<string> | undefined;
      for (const s of resolvedStrings(reader.step, reader.segments)) {
        if (!s.always || !LATER_READ.test(s.value)) continue;
        for (const read of stepReads(s.value, LATER_READ)) {
          // a valid document reads a step that runs later only through lastOutput/allVisits, on a loop
          if (!read.sure || read.inCoalesce || (read.property !== "lastOutput" && read.property !== "allVisits") || !list.byId.has(read.stepId)) continue;
          dependents ??= dependentsOf(list);
          loops ??= loopsOf(list, dependents);
          const loop = loops.get(reader.id);
          if (loop === undefined || loops.get(read.stepId) !== loop) continue;
          after ??= runsAfter(list, reader, dependents, (id) => loops!.get(id) === loop);
          if (!after.has(read.stepId)) continue;
          const later = read.stepId === reader.id
            ? `${quoted(reader.id)} reads its own output, which it does not have on its first visit`
            : `On the first visit of ${quoted(reader.id)}, ${quoted(read.stepId)} has not run yet (it runs after ${quoted(reader.id)})`;
          const replacement = `coalesce(${read.text}, "")`;
          out.push({
            code: LOOP_READ_BEFORE_RUN,
            segments: s.segments,
            start: read.start,
            end: read.end,
            message: `${later}, so this read fails with "references incomplete step". Read it through coalesce, as in ${replacement}.`,
            related: [{ segments: list.byId.get(read.stepId)!.segments, message: `${quoted(read.stepId)} is on the loop.` }],
            replace: { text: read.text, title: `Read ${read.text} through coalesce`, replacement },
          });
        }
      }
    }
  }
  return out;
}

/** Each step id → the steps that need it, and each decision's id → the steps it may choose. */
function dependentsOf(list: RunList): Map<string, RunStep[]> {
  const out = new Map<string, RunStep[]>();
  const add = (from: string, step: RunStep) => {
    const known = out.get(from);
    if (known) known.push(step);
    else out.set(from, [step]);
  };
  for (const step of list.steps) {
    for (const need of step.needs) if (list.byId.has(need)) add(need, step);
    if (step.uses !== "decision") continue;
    for (const t of decisionTargetsOf(step.step)) {
      const target = list.byId.get(t);
      if (target) add(step.id, target);
    }
  }
  return out;
}

/** Each step on a loop of the flow graph (needs and decision edges) → its loop's number. */
function loopsOf(list: RunList, dependents: Map<string, RunStep[]>): Map<string, number> {
  const index = new Map(list.steps.map((s, i) => [s.id, i]));
  const graph: Graph = list.steps.map((s) => (dependents.get(s.id) ?? []).map((t) => index.get(t.id)!));
  const out = new Map<string, number>();
  stronglyConnected(graph).forEach((component, n) => {
    if (isCycle(graph, component)) for (const i of component) out.set(list.steps[i].id, n);
  });
  return out;
}

/**
 * The reader and the steps that cannot complete before the reader first has. A step needs one of them
 * (so it is not runnable before), and when a decision may choose it (a chosen target runs whatever its
 * needs), every decision that may choose it is one of them too.
 */
function runsAfter(list: RunList, reader: RunStep, dependents: Map<string, RunStep[]>, onLoop: (id: string) => boolean): Set<string> {
  const out = new Set<string>([reader.id]);
  const queue = [reader.id];
  for (let k = 0; k < queue.length; k++) {
    for (const next of dependents.get(queue[k]) ?? []) {
      // the step read is on the reader's loop, and so is every step on a way from one to the other
      if (out.has(next.id) || !onLoop(next.id) || !next.needs.some((n) => out.has(n))) continue;
      if (!(list.targets.get(next.id) ?? []).every((d) => out.has(d.id))) continue;
      out.add(next.id);
      queue.push(next.id);
    }
  }
  return out;
}
