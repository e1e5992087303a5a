// The checks that need no sample (runtime semantics 16): run-time failures the document alone decides,
// reported as warnings of ours. Each check is a pure function of a document the validator accepted.
import type { RunNotice, SchemaOf } from "./notice";
import { runLists } from "./lists";
import { NEEDS_DECISION_STEP, needsDecisionStep } from "./needsDecisionStep";
import { BODY_TERMINAL_AMBIGUOUS, bodyTerminalAmbiguous } from "./bodyTerminals";
import { TERMINAL_OUTPUT_TYPE, terminalOutputType } from "./terminalOutputType";
import { LOOP_READ_BEFORE_RUN, loopReadBeforeRun } from "./loopReadBeforeRun";
import { BODY_READS_MULTI_VISIT_STEP, bodyReadsMultiVisitStep } from "./bodyReadsMultiVisitStep";
import { NEEDS_UNCHOSEN_TARGET, needsUnchosenTarget } from "./needsUnchosenTarget";
import { ITEM_KEY_NOT_STRING, itemKeyNotString } from "./itemKeyNotString";
import { FUNCTION_ARGUMENT_TYPE, functionArgumentType } from "./functionArgumentType";
import { UNSAFE_INPUT_KEY, unsafeInputKey } from "./unsafeInputKey";
import { WHEN_ALWAYS_TRUE, whenAlwaysTrue } from "./whenAlwaysTrue";

export type { RunNotice, SchemaOf } from "./notice";
export { NEEDS_DECISION_STEP, NEEDS_UNCHOSEN_TARGET, ITEM_KEY_NOT_STRING, FUNCTION_ARGUMENT_TYPE, UNSAFE_INPUT_KEY, WHEN_ALWAYS_TRUE, BODY_TERMINAL_AMBIGUOUS, TERMINAL_OUTPUT_TYPE, LOOP_READ_BEFORE_RUN, BODY_READS_MULTI_VISIT_STEP };

export const RUN_CHECK_CODES: readonly string[] = [NEEDS_DECISION_STEP, NEEDS_UNCHOSEN_TARGET, BODY_TERMINAL_AMBIGUOUS, TERMINAL_OUTPUT_TYPE, LOOP_READ_BEFORE_RUN, BODY_READS_MULTI_VISIT_STEP,
  ITEM_KEY_NOT_STRING, FUNCTION_ARGUMENT_TYPE, UNSAFE_INPUT_KEY, WHEN_ALWAYS_TRUE];

/**
 * Every run-time notice of a valid document's value, check by check. The declared types of paths come
 * from `schemaOf` (without it, the checks that need them say nothing).
 */
export function runChecks(value: unknown, schemaOf?: SchemaOf): RunNotice[] {
  const lists = runLists(value);
  const checks: Array<() => RunNotice[]> = [
    () => needsDecisionStep(lists),
    () => needsUnchosenTarget(lists),
    () => bodyTerminalAmbiguous(lists),
    () => terminalOutputType(value, lists),
    () => loopReadBeforeRun(lists),
    () => bodyReadsMultiVisitStep(lists),
    () => itemKeyNotString(lists, schemaOf),
    () => functionArgumentType(lists, schemaOf),
    () => unsafeInputKey(lists),
    () => whenAlwaysTrue(lists, schemaOf),
  ];
  return checks.flatMap((check) => {
    try {
      return check();
    } catch {
      // a check that trips over an odd document says nothing; the others still speak
      return [];
    }
  });
}
