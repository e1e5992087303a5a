// Which strings of a step the runtime resolves (runtime semantics 1.1, 7, 9, 12.2), and the step reads
// (`steps.X…`) in them, each marked with whether the runtime surely evaluates it and whether a
// `coalesce` around it swallows a "references incomplete step" error (5.2).
import { forEachStepString } from "../../lwir/path";
import { parseExpression, scanTemplates, type ExprNode } from "../../lwir/expressions";
import type { PathSegment } from "../../lwir/types";
import { isObject } from "../../lwir/validate";

export interface ResolvedString {
  value: string;
  segments: PathSegment[];
  /** Resolved every time the step runs (a decision's first case, not the later ones; items, not itemKey). */
  always: boolean;
}

/**
 * The strings of a step the runtime resolves that mention `steps` (or `needle`): its input (`input`, else
 * `with.args`), a decision's `when`s, a parallel step's `items` and `itemKey`, and, as the format's
 * documentation says (the indexed runtime code sends them as written), an ai.generate step's
 * `with.prompt` and `with.system`.
 */
export function resolvedStrings(step: Record<string, unknown>, stepSegments: PathSegment[], needle = "steps"): ResolvedString[] {
  const out: ResolvedString[] = [];
  const add = (value: unknown, segments: PathSegment[], always: boolean) =>
    forEachStepString(value, segments, (s, at) => out.push({ value: s, segments: at, always }), needle);
  const w = isObject(step.with) ? step.with : undefined;
  if (step.input !== undefined) add(step.input, [...stepSegments, "input"], true);
  else if (w && w.args !== undefined) add(w.args, [...stepSegments, "with", "args"], true);
  if (!w) return out;
  if (step.uses === "ai.generate") {
    add(w.prompt, [...stepSegments, "with", "prompt"], true);
    add(w.system, [...stepSegments, "with", "system"], true);
  } else if (step.uses === "decision" && Array.isArray(w.cases)) {
    // cases are tried in order until one is true: only the first is evaluated on every run
    w.cases.forEach((c, k) => { if (isObject(c)) add(c.when, [...stepSegments, "with", "cases", k, "when"], k === 0); });
  } else if (step.uses === "parallel") {
    add(w.items, [...stepSegments, "with", "items"], true);
    // once per item: never with no items
    add(w.itemKey, [...stepSegments, "with", "itemKey"], false);
  }
  return out;
}

export interface StepRead {
  stepId: string;
  /** `output`, `lastOutput`, `allVisits`, … */
  property: string | undefined;
  /** The whole path's offsets in the string's value, and its text. */
  start: number;
  end: number;
  text: string;
  /** Evaluated whenever the string is: not behind a `||`/`&&` operand that may decide first. */
  sure: boolean;
  /** Inside a coalesce call, which turns a missing step into undefined. */
  inCoalesce: boolean;
}

/** The `steps.X…` paths of a string's templates (only of the templates `only` matches, when given). */
export function stepReads(s: string, only?: RegExp): StepRead[] {
  const out: StepRead[] = [];
  const scan = scanTemplates(s);
  if (scan.malformedAt !== undefined) return out;
  for (const m of scan.matches) {
    if (m.body.indexOf("steps") < 0 || (only && !only.test(m.body))) continue;
    const { node, errors } = parseExpression(m.body);
    if (!node || errors.length > 0) continue;
    const stack: Array<{ node: ExprNode; sure: boolean; inCoalesce: boolean }> = [{ node, sure: true, inCoalesce: false }];
    while (stack.length > 0) {
      const { node: n, sure, inCoalesce } = stack.pop()!;
      if (n.kind === "path") {
        const id = n.root === "steps" ? stepIdOf(n) : undefined;
        if (id === undefined) continue;
        const prop = n.segments[1]?.kind === "name" ? n.segments[1].name : undefined;
        out.push({ stepId: id, property: prop, start: m.bodyStart + n.start, end: m.bodyStart + n.end, text: m.body.slice(n.start, n.end), sure, inCoalesce });
      } else if (n.kind === "call") {
        const swallows = inCoalesce || n.name === "coalesce";
        // every function but coalesce evaluates all its arguments (5.1); coalesce stops at the first value
        n.args.forEach((a, k) => stack.push({ node: a, sure: sure && (n.name !== "coalesce" || k === 0), inCoalesce: swallows }));
      } else if (n.kind === "binary") {
        // || and && stop at the operand that decides; comparisons evaluate both sides (2.3, 2.4)
        const lazy = n.op === "||" || n.op === "&&";
        stack.push({ node: n.right, sure: sure && !lazy, inCoalesce }, { node: n.left, sure, inCoalesce });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function stepIdOf(n: Extract<ExprNode, { kind: "path" }>): string | undefined {
  const first = n.segments[0];
  if (!first) return undefined;
  if (first.kind === "name") return first.name;
  return first.quoted ? String(first.value) : undefined;
}
