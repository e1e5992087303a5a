// lwir.body_terminal_ambiguous (runtime semantics 12.2; section 16 item 9): before each branch starts, the
// runtime looks for the body's one final step as it does for the workflow (10.4); with two or more, every
// branch fails with "Ambiguous terminal steps". The validator checks this for the top level only.
import { terminalIndexes } from "../../lwir/validate";
import type { RunList } from "./lists";
import { quoted, type RunNotice } from "./notice";

export const BODY_TERMINAL_AMBIGUOUS = "lwir.body_terminal_ambiguous";

export function bodyTerminalAmbiguous(lists: readonly RunList[]): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    if (!list.parent) continue;
    const finals = terminalIndexes(list.entries).map((i) => list.steps.find((s) => s.step === list.entries[i])).filter((s) => s !== undefined);
    if (finals.length < 2) continue;
    const names = finals.map((s) => quoted(s.id));
    out.push({
      code: BODY_TERMINAL_AMBIGUOUS,
      segments: list.segments,
      onKey: true,
      message: `Every branch of ${quoted(list.parent.id)} fails when the workflow runs: its body has ${finals.length} final steps (${names.join(", ")}), ` +
        "steps that no other step needs and no decision chooses, and a branch needs exactly one. Make the others needed by one of them.",
      related: finals.map((s) => ({ segments: s.segments, message: `${quoted(s.id)} is a final step of the body.` })),
    });
  }
  return out;
}
