// The evaluator's reading (split on ||, then &&, then the leftmost comparison) against a second reading:
// the validator's parse tree walked by a small evaluator written here. Where the validator accepts an
// expression the two must agree exactly (the value, or the runtime's error text); generated expressions
// cover paths that exist and do not, literals with quotes and escapes, every function with good and bad
// arities, ||/&& chains and comparisons, with random spacing. And any string at all gives a result.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseExpression, type ExprNode } from "../../server/src/lwir/expressions";
import { evaluateExpression, evaluateTemplate } from "../../server/src/run/evaluate";
import { EAGER_FUNCTIONS } from "../../server/src/run/functions";
import { compare, truthy, type ComparisonOp } from "../../server/src/run/values";
import { stepsMap, type EvalContext } from "../../server/src/run/context";

const context: EvalContext = {
  input: { a: 1, b: "two", c: [1, "x", null], d: { e: { f: true } }, z: 0, n: null, "k-1": "dash", s: "" },
  steps: stepsMap({ p: { output: { q: "r", list: [3, 4] } }, m: { output: 2, visits: [1, 2] }, t: { output: "text" } }),
  step: { id: "cur" },
  workflow: { steps: [{ id: "p" }] },
};

class Thrown {
  constructor(readonly runtime: string) {}
}

/** The tree walked the obvious way, with the runtime's laziness and its error texts. */
function walk(node: ExprNode, text: string, ctx: EvalContext): unknown {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "error":
      throw new Error("not reached: only accepted expressions are walked");
    case "binary": {
      if (node.op === "||") return truthy(walk(node.left, text, ctx)) || truthy(walk(node.right, text, ctx));
      if (node.op === "&&") return truthy(walk(node.left, text, ctx)) && truthy(walk(node.right, text, ctx));
      const l = walk(node.left, text, ctx);
      const r = walk(node.right, text, ctx);
      return compare(node.op as ComparisonOp, l, r);
    }
    case "call": {
      const fn = node.name;
      if (fn === "coalesce") {
        if (node.args.length < 2) throw new Thrown("coalesce() requires at least two arguments.");
        for (const a of node.args) {
          let v: unknown;
          try {
            v = walk(a, text, ctx);
          } catch (e) {
            if (e instanceof Thrown && /could not be resolved|references incomplete step/.test(e.runtime)) continue;
            throw e;
          }
          if (v !== null && v !== undefined) return v;
        }
        return undefined;
      }
      if (!Object.prototype.hasOwnProperty.call(EAGER_FUNCTIONS, fn)) throw new Thrown(`Unsupported expression function '${fn}'.`);
      const args = node.args.map((a) => walk(a, text, ctx));
      const r = evaluateExpression(`${fn}(${args.map((_, i) => `input.v${i}`).join(", ")})`, { input: Object.fromEntries(args.map((v, i) => [`v${i}`, v])), steps: {} });
      if (!r.ok) throw new Thrown(r.error.runtime);
      return r.value;
    }
    case "path": {
      const body = text.slice(node.start, node.end);
      const segs = node.segments.map((s) => (s.kind === "name" ? s.name : s.value));
      let v: unknown;
      let from = 0;
      if (node.root === "steps") {
        const id = segs[0];
        if (typeof id !== "string") throw new Thrown(`Unsupported step expression: ${body}`);
        if (!Object.prototype.hasOwnProperty.call(ctx.steps, id)) throw new Thrown(`Expression references incomplete step '${id}'.`);
        const env = ctx.steps[id];
        from = 1;
        v = env;
        if (segs[1] === "lastOutput") {
          v = Array.isArray(env.visits) && env.visits.length > 0 ? env.visits[env.visits.length - 1] : env.output;
          from = 2;
        } else if (segs[1] === "allVisits") {
          v = Array.isArray(env.visits) ? env.visits : env.output !== undefined ? [env.output] : [];
          from = 2;
        }
      } else if (node.root === "item") {
        if (!ctx.hasItem) throw new Thrown(`Expression references item outside a parallel branch: ${body}`);
        v = ctx.item;
      } else v = (ctx as unknown as Record<string, unknown>)[node.root];
      for (const s of segs.slice(from)) {
        const ok = typeof s === "number" ? Array.isArray(v) && s in v : v !== null && typeof v === "object" && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, s);
        if (!ok) throw new Thrown(`Expression '${body}' could not be resolved at '${s}'.`);
        v = (v as Record<string | number, unknown>)[s];
      }
      return v;
    }
  }
}

const sp = fc.constantFrom("", " ", "  ", "\t");
const pathArb = fc.oneof(
  fc.constantFrom("input.a", "input.b", "input.c", "input.c[1]", "input.c[5]", "input.d.e.f", "input.d.e.g", "input.missing", "input.z", "input.n", "input.s",
    'input["k-1"]', "input.k-1", "input.b.length", "input.c.x", "input", "steps.p.output.q", "steps.p.output.list[1]", "steps.p.lastOutput.q", "steps.p.allVisits[0].q",
    "steps.m.lastOutput", "steps.m.allVisits", "steps.m.output", "steps.m.visits[0]", "steps.gone.output", "steps.t.output.x", "steps.p", "step.id", "step.x",
    "workflow.steps[0].id", "item", "item.x", 'steps["p"].output', "steps.p.outputs"),
);
const literalArb = fc.oneof(
  fc.constantFrom("true", "false", "null", "0", "1", "-2", "1.5", "-0", '""', "''", '"two"', "'1'", '"a\\"b"', "'it\\'s'", '"x||y"', '"a&&b"', '"1 < 2"', '"(,)"', '"]"'),
  fc.integer({ min: -100, max: 100 }).map(String),
);
const FUNCS = ["coalesce", "date", "hmac", "json", "len", "lower", "sha256", "upper", "toString"];
const CMP = ["===", "!==", ">=", "<=", "==", "!=", ">", "<"];

const exprArb: fc.Arbitrary<string> = fc.letrec<{ expr: string; operand: string; term: string }>((tie) => ({
  operand: fc.oneof(
    { weight: 4, arbitrary: pathArb },
    { weight: 3, arbitrary: literalArb },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...FUNCS), fc.array(tie("expr"), { maxLength: 3 }), sp, sp)
        .map(([f, args, s1, s2]) => `${f}(${s1}${args.join(`${s2},${s1}`)}${s2})`),
    },
  ),
  term: fc.oneof(
    { weight: 3, arbitrary: tie("operand") },
    { weight: 2, arbitrary: fc.tuple(tie("operand"), sp, fc.constantFrom(...CMP), sp, tie("operand")).map(([a, s1, op, s2, b]) => `${a}${s1}${op}${s2}${b}`) },
  ),
  expr: fc.oneof(
    { weight: 4, arbitrary: tie("term") },
    { weight: 1, arbitrary: fc.tuple(fc.array(tie("term"), { minLength: 2, maxLength: 4 }), fc.constantFrom("||", "&&"), sp).map(([ts, op, s]) => ts.join(`${s}${op}${s}`)) },
    { weight: 1, arbitrary: fc.tuple(tie("term"), tie("term"), tie("term")).map(([a, b, c]) => `${a} || ${b} && ${c}`) },
  ),
})).expr;

function oracle(body: string, ctx: EvalContext): { ok: true; value: unknown } | { ok: false; runtime: string } | undefined {
  const { node, errors } = parseExpression(body);
  if (!node || errors.length > 0) return undefined;
  try {
    return { ok: true, value: walk(node, body, ctx) };
  } catch (e) {
    if (e instanceof Thrown) return { ok: false, runtime: e.runtime };
    throw e;
  }
}

describe("the evaluator's reading agrees with the grammar wherever the validator accepts", () => {
  test("generated expressions: the same value or the same runtime error", () => {
    let compared = 0;
    fc.assert(
      fc.property(exprArb, (body) => {
        const expected = oracle(body, context);
        if (expected === undefined) return;
        compared++;
        const got = evaluateExpression(body, context);
        if (expected.ok) {
          assert.ok(got.ok, `${body}: ${got.ok ? "" : got.error.runtime}`);
          assert.deepEqual(got.value, expected.value, body);
        } else {
          assert.ok(!got.ok, `${body}: expected ${expected.runtime}`);
          assert.equal(got.error.runtime, expected.runtime, body);
        }
      }),
      { numRuns: 3000, seed: 24 },
    );
    assert.ok(compared > 1500, `only ${compared} expressions were accepted by the validator`);
  });

  test("any string at all: a result, never a throw", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("{", "}", "{{", "}}", " ", "(", ")", "[", "]", '"', "'", "\\", "|", "&", "<", "=", "!", ",", ".", "a", "input", "steps", "len", "1") }), (s) => {
        const r = evaluateTemplate(s, context);
        assert.equal(typeof r.ok, "boolean");
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});
