// How the workflow's expressions use a value: every path read in a string the runtime evaluates
// (service/evaluatedStrings.ts), with the expression around it. Quick fixes read it to write what the
// text already implies: the choice values a step's output is compared with (choiceValuesFix.ts), the
// type of an input property from how it is used (declareInputFix.ts). Reads only; nothing is evaluated.
import type { PathSegment } from "../lwir/types";
import { parseExpression, scanTemplates, type ExprNode } from "../lwir/expressions";
import { isObject } from "../lwir/validate";
import type { Analysis } from "./analysis";
import { factsOf } from "./stepFacts";
import { forEachWithString, walkStrings, type WithStringRole } from "./evaluatedStrings";

export type PathNode = Extract<ExprNode, { kind: "path" }>;

/** One read of a path, and what surrounds it. */
export interface PathUse {
  node: PathNode;
  /** The enclosing nodes, innermost first (a comparison, a call, …). */
  parents: ExprNode[];
  /** What the string is to the runtime: a decision's `when`, a parallel `items`/`itemKey`, or text (`with`, `input`). */
  role: WithStringRole;
  /** The template is the whole string (`when`, `items`: its value is the expression's value). */
  whole: boolean;
  /** The string holding it. */
  segments: PathSegment[];
}

const cache = new WeakMap<Analysis, PathUse[]>();

/** Every path read in the document's evaluated strings, in document order (once per analysis). */
export function pathUses(analysis: Analysis): PathUse[] {
  let out = cache.get(analysis);
  if (out) return out;
  out = [];
  const facts = factsOf(analysis);
  for (const list of facts?.lists ?? []) {
    list.entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const stepSegments = [...list.segments, i];
      const visit = (value: unknown, segments: PathSegment[], role: WithStringRole) => {
        if (typeof value !== "string" || value.indexOf("{{") < 0) return;
        const scan = scanTemplates(value);
        const whole = scan.matches.length === 1 && scan.matches[0].start === 0 && scan.matches[0].end === value.length;
        for (const m of scan.matches) {
          const { node } = parseExpression(m.body);
          if (node) collect(node, [], { role, whole, segments }, out!);
        }
      };
      forEachWithString(entry, stepSegments, visit);
      walkStrings(entry.input, [...stepSegments, "input"], (v, s) => visit(v, s, "text"));
    });
  }
  cache.set(analysis, out);
  return out;
}

function collect(root: ExprNode, parents0: ExprNode[], at: Omit<PathUse, "node" | "parents">, out: PathUse[]): void {
  const stack: Array<[ExprNode, ExprNode[]]> = [[root, parents0]];
  while (stack.length > 0) {
    const [n, parents] = stack.pop()!;
    if (n.kind === "path") out.push({ node: n, parents, ...at });
    else if (n.kind === "call") for (let k = n.args.length - 1; k >= 0; k--) stack.push([n.args[k], [n, ...parents]]);
    else if (n.kind === "binary") stack.push([n.right, [n, ...parents]], [n.left, [n, ...parents]]);
    else if (n.kind === "error" && n.partial) stack.push([n.partial, parents]);
  }
}

/** The name a path segment spells (`.name` or `["name"]`), or undefined for a numeric index. */
export function segmentName(seg: PathNode["segments"][number]): string | undefined {
  if (seg.kind === "name") return seg.name;
  return seg.quoted ? String(seg.value) : undefined;
}

/** The literal a comparison holds against this path's value, when the path is one side of `==`, `!=`, `<`, … and a literal the other. */
export function comparedLiteral(use: PathUse): { op: string; value: string | number | boolean | null } | undefined {
  const parent = use.parents[0];
  if (!parent || parent.kind !== "binary" || parent.op === "&&" || parent.op === "||") return undefined;
  const other = parent.left === use.node ? parent.right : parent.right === use.node ? parent.left : undefined;
  return other && other.kind === "literal" ? { op: parent.op, value: other.value } : undefined;
}
