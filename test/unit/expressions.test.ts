// The expression language (catalog 5.2–5.8, 3.4, 3.6, 3.11): scanning, the safety screen, the
// grammar, functions, whole-string templates, the item root, step references, the tolerant
// parser and completion contexts. Rows come from the catalog's examples and from the conformance
// corpus (labels show whether expression.invalid fired at the string's path).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertLinearWork } from "./work-count";
import { parseYaml } from "./runtime-yaml";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import {
  EXPRESSION_FUNCTIONS,
  EXPRESSION_ROOTS,
  MAX_EXPRESSION_NESTING,
  checkExpressionBody,
  checkTemplateString,
  checkWholeTemplate,
  completionContextAt,
  extractStepReferences,
  parseExpression,
  scanTemplates,
  stepReferencesOf,
  templateAt,
  usesItemRoot,
  type ExprNode,
  type TemplateStatus,
} from "../../server/src/lwir/expressions";
import { CONFORMANCE, REALWORLD, corpusCases } from "../corpus";

const ok = (body: string, itemAllowed = false): boolean => checkExpressionBody(body, itemAllowed) === undefined;

// -------------------------------------------------------------------------------------------
describe("scanning a string (catalog 5.2)", () => {
  const rows: [string, TemplateStatus, string[]?][] = [
    ["plain text", "plain"],
    ["", "plain"],
    ["a { b } c", "plain"],
    ["{ single } braces", "plain"],
    ["{{}}", "malformed"],
    ["{{ }}", "unsafe", [""]],
    ["{{{ input.x }}}", "ok", ["input.x"]],
    ["{{ a }", "malformed"],
    ["a }} b", "malformed"],
    ["{{ a }} }}", "malformed"],
    ["{{ json({a: 1}) }}", "malformed"],
    ["Hi {{ input.a }}, see {{ input.b }}", "ok", ["input.a", "input.b"]],
    ["{{input.a}}", "ok", ["input.a"]],
    ["{{ input.a }}{{ input.b }}", "ok", ["input.a", "input.b"]],
    ["{{\n  input.a\n}}", "ok", ["input.a"]],
    ["{{ input.a", "malformed"],
    ["{{ input.a }} and {{ input.b", "malformed"],
    ["Use }} carefully", "malformed"],
    ["{{ a }}}}", "malformed"],
    ["{{{{ input.a }}}}", "malformed"],
    ["{ {{ input.a }} }", "ok", ["input.a"]],
    ["{{ input.a }} {", "ok", ["input.a"]],
    ["}{{ input.a }}{", "ok", ["input.a"]],
    // the left-over "{" and "{" around a removed match join into "{{"
    ["{{{ input.a }}{ x", "malformed"],
    ["x }{{ input.a }}} y", "malformed"],
    ["{{ input.a }} }", "ok", ["input.a"]],
    ["{{ b }}", "unsafe", ["b"]],
    ["{{ input.a }} {{ b }}", "unsafe", ["input.a", "b"]],
    ["export async function run({ input }) {\n  if (input) { return { ok: true }; }}\n", "malformed"],
    ["{{ steps.ghost.output; }}", "unsafe", ["steps.ghost.output;"]],
  ];
  for (const [s, status, bodies] of rows) {
    test(`${JSON.stringify(s)} is ${status}`, () => {
      const r = checkTemplateString(s, false);
      assert.equal(r.status, status, r.message);
      if (status === "plain" || status === "malformed") assert.deepEqual(r.matches, []);
      if (bodies) assert.deepEqual(r.matches.map((m) => m.body), bodies);
      if (status === "malformed" || status === "unsafe") {
        assert.ok(r.message && r.message.length > 10);
        assert.ok(r.errorStart !== undefined && r.errorEnd !== undefined && r.errorStart < r.errorEnd && r.errorEnd <= s.length);
      } else assert.equal(r.message, undefined);
    });
  }

  test("match offsets and bodyStart point into the string", () => {
    const s = "Hi {{  input.a }}, {{steps.b.output   }}!";
    const r = checkTemplateString(s, false);
    assert.equal(r.status, "ok");
    const [a, b] = r.matches;
    assert.deepEqual(a, { start: 3, end: 17, body: "input.a", bodyStart: 7 });
    assert.deepEqual(b, { start: 19, end: 40, body: "steps.b.output", bodyStart: 21 });
    for (const m of r.matches) {
      assert.equal(s.slice(m.start, m.start + 2), "{{");
      assert.equal(s.slice(m.end - 2, m.end), "}}");
      assert.equal(s.slice(m.bodyStart, m.bodyStart + m.body.length), m.body);
    }
  });

  test("the body is trimmed the way JavaScript trims (non-ASCII spaces, BOM)", () => {
    const r = checkTemplateString("{{\u00a0\u2003input.a\ufeff\u3000}}", false);
    assert.equal(r.status, "ok");
    assert.equal(r.matches[0]?.body, "input.a");
    assert.equal(r.matches[0]?.bodyStart, 4);
  });

  test("messages say what is wrong and where", () => {
    assert.match(checkTemplateString("{{}}", false).message ?? "", /no expression between the braces/);
    assert.match(checkTemplateString("a }} b", false).message ?? "", /^The "}}" at character 3 of the text has no opening "\{\{": /);
    assert.match(checkTemplateString("{{ input.a }} {{ input.b; }}", false).message ?? "", /\{\{ input\.b; \}\} is not a valid expression: .*";"/);
    const r = checkTemplateString("x {{ input.a + 1 }}", false);
    assert.match(r.message ?? "", /arithmetic/);
    assert.equal(r.errorStart, 13);
  });

  test("the first failing body decides the message", () => {
    const r = checkTemplateString("{{ 1e3 }} {{ new }}", false);
    assert.match(r.message ?? "", /exponent/);
  });
});

// -------------------------------------------------------------------------------------------
describe("safety screen (catalog 5.3)", () => {
  const words = ["await", "new", "function", "import", "require", "process", "globalThis", "global", "eval", "constructor", "prototype"];
  for (const w of words) {
    test(`"${w}" is refused as a whole word anywhere`, () => {
      assert.match(checkExpressionBody(`input.${w}`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`${w}`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`input.a == "${w}"`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`input["${w}"]`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`steps.${w}-x.output`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`input.a == 'x ${w}'`, false) ?? "", new RegExp(`"${w}"`));
      assert.match(checkExpressionBody(`input.$${w}`, false) ?? "", new RegExp(`"${w}"`), "$ is not an ASCII word character");
    });
    test(`"${w}" inside a longer word is fine`, () => {
      assert.ok(ok(`input.${w}s`));
      assert.ok(ok(`input.x${w}`));
      assert.ok(ok(`input.${w}_x`));
      assert.ok(ok(`input.${w}9`));
    });
  }
  const rows: [string, boolean][] = [
    ["new-draft", false],
    ["steps.new-draft.output", false],
    ["input.new", false],
    ["input.news", true],
    ["input.renewal", true],
    ['coalesce(input.mode, "global")', false],
    ['coalesce(input.mode, "globally")', true],
    ["input.a; input.b", false],
    ['input.a == "a;b"', false],
    ["input.a == 'x`y'", false],
    ["input.items.filter(x => x)", false],
    ['input.a == "=>"', false],
    ["input.a >= 1", true],
    ["input.__proto__", false],
    ["input.a__proto__b", false],
    ['input["__proto__"]', false],
    ["input.__proto", true],
    ["input.body; process.kill(0)", false],
    ["process.env.SECRET", false],
    ["await(input.job)", false],
    ["steps[0]", false],
    ["steps[0].output", false],
    ["steps [ 12 ].output", false],
    ["len(steps[3])", false],
    ["input.steps[0]", true],
    ['steps["0"].output', true],
    ["input.a == 'steps[0]'", true],
    ["input.pre-steps[0]", true],
    ["", false],
  ];
  for (const [body, good] of rows) {
    test(`${JSON.stringify(body)} ${good ? "passes" : "is refused"}`, () => assert.equal(ok(body), good, checkExpressionBody(body, false)));
  }
  test("an empty body is reported as such", () => assert.match(checkExpressionBody("", false) ?? "", /empty/));
  test("numeric step indexes have their own message", () => assert.match(checkExpressionBody("steps[0].output", false) ?? "", /numeric step index/));
});

// -------------------------------------------------------------------------------------------
describe("the item root (catalog 5.3 rule 3, 3.11)", () => {
  const rows: [string, boolean][] = [
    ["item", true],
    ["item.id", true],
    ["item[0]", true],
    ['item["a b"]', true],
    ["sha256(item)", true],
    ["coalesce(input.a, item)", true],
    ["item == null", true],
    ["item==null", true],
    ["item != null", true],
    ["item < 3", true],
    ["item > 3", true],
    ["item || input.a", true],
    ["item && input.a", true],
    ["input.a == item", true],
    ["item\n", true],
    ["(item)", true],
    ["item ", true],
    ["input.item", false],
    ["items", false],
    ["item_count", false],
    ["itemKey", false],
    ["xitem", false],
    ["$item", false],
    ["_item", false],
    ["my-item", false],
    ["steps.item.output", false],
    ["item(", false],
    ["item+1", false],
    ["item?", false],
    ["'item'", false],
    ['"item.id"', false],
    ['input.a == "a \\" item \\" b"', false],
    ["'it\\'s' == item", true],
    ['"x"item', true],
    // literals are deleted (not blanked), so the item below is followed by the end of the text
    ['item"x"', true],
    ["'unterminated item", true],
  ];
  for (const [body, uses] of rows) {
    test(`usesItemRoot(${JSON.stringify(body)}) is ${uses}`, () => assert.equal(usesItemRoot(body), uses));
  }
  const bodies: [string, boolean][] = [
    ["item", true],
    ["item.id", true],
    ["sha256(item)", true],
    ["item == null", true],
    ["input.item", false],
    ["items", false],
    ["item_count", false],
    ["item.count + 1", true],
  ];
  for (const [body, usesItem] of bodies) {
    test(`${JSON.stringify(body)}: refused outside a body exactly when it uses item`, () => {
      const outside = checkExpressionBody(body, false);
      if (usesItem) assert.match(outside ?? "", /"item" can only be used inside the body of a parallel step/);
      else assert.doesNotMatch(outside ?? "", /"item"/);
    });
  }
  test("with item allowed, item paths are plain paths", () => {
    for (const b of ["item", "item.id", "sha256(item)", "item == null", "item.a-b[0]['c']"]) assert.ok(ok(b, true), b);
    assert.ok(!ok("items", true));
    assert.ok(!ok("item_count", true));
    assert.ok(!ok("item.count + 1", true));
  });
});

// -------------------------------------------------------------------------------------------
describe("grammar (catalog 5.4)", () => {
  const rows: [string, boolean][] = [
    // paths and roots
    ["input", true],
    ["steps", true],
    ["steps.x", true],
    ["steps.x.anything.at.all", true],
    ["step.id", true],
    ["workflow", true],
    ["workflow.metadata.name", true],
    ["inputs", false],
    ["Input", false],
    ["foo.bar", false],
    ["news", false],
    ["renewal", false],
    ["input.0", false],
    ["input[0]", true],
    ["input.items[0].id", true],
    ["input['a b']", true],
    ['input["a b"]["c"][1]', true],
    ['input["a\\"b"]', true],
    ["input['it\\'s']", true],
    ['steps["step one"].output', true],
    ["steps['翻訳'].output", true],
    ['steps["données-brutes"].output', true],
    ["steps.données.output", false],
    ["steps.a-b.output", true],
    ["steps.a-.output", true],
    ["steps.-a.output", false],
    ["steps.1a.output", false],
    ["steps.$a._b.c9", true],
    ["input-x", false],
    ["input.a b", false],
    ["input . name", false],
    ["input .name", false],
    ["input[ 0 ]", false],
    ["input[-1]", false],
    ["input[01]", true],
    ["input[0.5]", false],
    ["input[a]", false],
    ["input[]", false],
    ["input[0", false],
    ['input["a"', false],
    ["input.", false],
    ["input..a", false],
    ['input["construct\\or"]', false],
    ["input.a.length", true],
    // literals
    ['"text"', true],
    ["'text'", true],
    ["''", true],
    ['"unterminated', false],
    ['"a" "b"', false],
    ["0", true],
    ["-0", true],
    ["42", true],
    ["-1.5", true],
    ["3.14159", true],
    ["01", false],
    ["1.", false],
    [".5", false],
    ["+5", false],
    ["1e3", false],
    ["1E3", false],
    ["- 1", false],
    ["0x10", false],
    ["true", true],
    ["false", true],
    ["null", true],
    ["undefined", false],
    ["True", false],
    ["NaN", false],
    // operators
    ["input.a == input.b", true],
    ["input.a===input.b", true],
    ["input.a !== null", true],
    ["input.a != 1", true],
    ["input.a >= 1", true],
    ["input.a <= 1", true],
    ["input.a > 1", true],
    ["input.a < 1", true],
    ["input.n > 1e3", false],
    ["a < b < c", false],
    ["input.a < input.b < input.c", false],
    ["input.a == input.b == input.c", false],
    ["input.a == input.b && input.c != 2 || input.d", true],
    ["len(input.items) >= 1 && input.releaseTag !== null || false", true],
    ["steps.grade.output.score >= 50 && steps.grade.output.score < 90", true],
    ["steps.grade.output.score < 50 || steps.grade.output.score == null", true],
    ["input.a || input.b || input.c || input.d", true],
    ["input.a && input.b && input.c", true],
    ["input.a ||", false],
    ["|| input.a", false],
    ["input.a || || input.b", false],
    ["input.a ||| input.b", false],
    ["input.a | input.b", false],
    ["input.a & input.b", false],
    ["input.a &&& input.b", false],
    ["input.a = 1", false],
    ["input.a ==", false],
    ["== input.a", false],
    ["input.a ==== 1", false],
    ["input.a <> 1", false],
    ["input.a == -1", true],
    ["input.a==-1", true],
    ["input.a == '<'", true],
    ["input.a == '||' && input.b == '&&'", true],
    ['input["a==b"] == input["c<d"]', true],
    // not supported
    ["!input.flag", false],
    ["!(input.a)", false],
    ["-input.a", false],
    ["input.a + 1", false],
    ["input.a - 1", false],
    ["input.a * 2", false],
    ["input.a / 2", false],
    ["input.a % 2", false],
    ["item.count + 1", false],
    ["(input.a)", false],
    ["(input.a == 1) || input.b", false],
    ["[1, 2]", false],
    ["input.a ? 1 : 2", false],
    ["input.items.filter(x)", false],
    ["input.a.toString()", false],
    ["input.a()", false],
    ["input.a.b (x)", false],
    ["input.a[0](x)", false],
    ["input.a input.b", false],
    ["'a' 'b'", false],
    // comparisons inside calls
    ["coalesce(input.a == 1, input.b < input.c)", true],
    ["coalesce(input.a || input.b, input.c && input.d)", true],
    ["len(input.a) == len(input.b)", true],
    ["len(input.items) > len(input.invoiceId)", true],
    ["lower(input.a) == upper(input.b)", true],
  ];
  for (const [body, good] of rows) {
    test(`${JSON.stringify(body)} ${good ? "is accepted" : "is rejected"}`, () =>
      assert.equal(ok(body, true), good, checkExpressionBody(body, true)));
  }

  test("messages name the problem", () => {
    const cases: [string, RegExp][] = [
      ["1e3", /exponent/],
      ["+5", /"\+"/],
      [".5", /0\.5/],
      ["!input.flag", /negation/],
      ["input.a + 1", /arithmetic/],
      ["input.items.filter(x)", /method calls/],
      ["input.0", /cannot start with a digit; write \[0\]/],
      ["input . name", /spaces|whitespace/],
      ["input.a < input.b < input.c", /cannot be chained/],
      ["(input.a)", /parentheses/],
      ["foo.bar", /unknown root "foo"/],
      ["trim(input.name)", /unknown function "trim"/],
      ["coalesce(input.a,,input.b)", /empty argument/],
      ["hmac(input.k, input.v, input.w)", /hmac\(\) takes exactly 2 arguments, got 3/],
      ["sha256()", /sha256\(\) takes at least 1 argument, got 0/],
      ["input['prototype'][0]", /"prototype"/],
    ];
    for (const [body, re] of cases) assert.match(checkExpressionBody(body, true) ?? "", re, body);
  });
});

// -------------------------------------------------------------------------------------------
describe("functions (catalog 5.5)", () => {
  const args = (n: number): string => Array.from({ length: n }, (_, i) => `input.a${i}`).join(", ");
  for (const f of EXPRESSION_FUNCTIONS) {
    test(`${f.name}: ${f.minArgs}..${f.maxArgs ?? "∞"} arguments`, () => {
      for (let n = 0; n <= f.minArgs + 4; n++) {
        const expected = n >= f.minArgs && (f.maxArgs === undefined || n <= f.maxArgs);
        assert.equal(ok(`${f.name}(${args(n)})`), expected, `${f.name} with ${n}: ${checkExpressionBody(`${f.name}(${args(n)})`, false)}`);
      }
      assert.ok(!ok(`${f.name}( )`), "blank argument list counts as none (no function takes zero)");
    });
  }
  test("the table matches the catalog", () => {
    const t = Object.fromEntries(EXPRESSION_FUNCTIONS.map((f) => [f.name, [f.minArgs, f.maxArgs]]));
    assert.deepEqual(t, {
      coalesce: [2, undefined], date: [1, 1], hmac: [2, 2], json: [1, 1], len: [1, 1], lower: [1, 1], sha256: [1, undefined], upper: [1, 1],
    });
    for (const f of EXPRESSION_FUNCTIONS) assert.ok(f.signature.startsWith(f.name + "(") && f.doc.length > 5);
    assert.deepEqual(EXPRESSION_ROOTS.map((r) => r.name).sort(), ["input", "item", "step", "steps", "workflow"]);
  });
  const rows: [string, boolean][] = [
    ["f(a,,b)", false],
    ["coalesce(input.a,,input.b)", false],
    ["coalesce(input.a, input.b,)", false],
    ["coalesce(, input.a, input.b)", false],
    ["coalesce(input.mode, 'x')", true],
    ["coalesce( input.a , 'x' )", true],
    ["len (input.a)", true],
    ["len\t(input.a)", true],
    ["sha256(item)", true],
    ["sha256(input.a, input.b, input.c)", true],
    ["hmac(input.k, input.v)", true],
    ["hmac(input.k, input.v, input.w)", false],
    ["sha256()", false],
    ["date(input.createdAt)", true],
    ["json(steps.as-array.output)", true],
    ["json(json(json(input.a)))", true],
    ["upper(lower(input.a)) == 'X'", true],
    ["coalesce(len(input.a) > 1, input.b == 'y' || input.c)", true],
    ["trim(input.name)", false],
    ["bad(", false],
    ["len(input.a", false],
    ["len(input.a))", false],
    ["len(input.a)(input.b)", false],
    ["len(input.a) x", false],
    ["len(input.a]", false],
    ["Len(input.a)", false],
    ["input(x)", false],
    ["len(input[')'])", true],
    ["coalesce(input[','], 'a,b')", true],
    ["len()", false],
  ];
  for (const [body, good] of rows) {
    test(`${JSON.stringify(body)} ${good ? "is accepted" : "is rejected"}`, () =>
      assert.equal(ok(body, true), good, checkExpressionBody(body, true)));
  }
});

// -------------------------------------------------------------------------------------------
describe("whole-string templates (catalog 5.7)", () => {
  const rows: [unknown, boolean, boolean, boolean][] = [
    // value, itemAllowed, requireItem, accepted
    ["{{ x }}", false, false, false],
    ["{{ input.x }}", false, false, true],
    [" {{ input.x }}", false, false, false],
    ["{{ input.x }} ", false, false, false],
    ["{{ input.a }}{{ input.b }}", false, false, false],
    ["x: {{ input.a }}", false, false, false],
    ["steps.a.ok", false, false, false],
    ["{{ steps.a.output.ok }}", false, false, true],
    [" {{ steps.a.output.ok }}", false, false, false],
    ["{{ steps.a.output }} ", false, false, false],
    ["{{steps.a.output}}", false, false, true],
    ["{{ steps.grade.output.score >= 50 && steps.grade.output.score < 90 }}", false, false, true],
    ["{{ true }}", false, false, true],
    ["{{ null }}", false, false, true],
    ["{{}}", false, false, false],
    ["{{ }}", false, false, false],
    ["{{ input.a; }}", false, false, false],
    ["{{ input.x }}}}", false, false, false],
    // literal reading of 5.7: starts with {{, ends with }}, scans to exactly one expression
    ["{{{ input.x }}}", false, false, true],
    ["", false, false, false],
    [5, false, false, false],
    [null, false, false, false],
    [undefined, false, false, false],
    [["{{ input.x }}"], false, false, false],
    [{ a: 1 }, false, false, false],
    [true, false, false, false],
    // parallel items
    ["{{ input.items }}", false, false, true],
    ["{{ item.children }}", false, false, false],
    ["{{ item.children }}", true, false, true],
    ["input.items", false, false, false],
    ["{{ input.items.filter(x => x) }}", false, false, false],
    // itemKey
    ["{{ item.id }}", true, true, true],
    ["{{ sha256(item) }}", true, true, true],
    ["{{ coalesce(item.id, input.x) }}", true, true, true],
    ["{{ item }}", true, true, true],
    ["{{ input.service }}", true, true, false],
    ["{{ sha256(input.items) }}", true, true, false],
    ["{{ input.item }}", true, true, false],
    ["{{ 'item' }}", true, true, false],
    ["{{ item.id }}-v1", true, true, false],
    ["item.id", true, true, false],
    ["{{ item.id + 1 }}", true, true, false],
  ];
  for (const [value, itemAllowed, requireItem, accepted] of rows) {
    test(`${JSON.stringify(value) ?? "undefined"} (item ${itemAllowed ? "allowed" : "not allowed"}${requireItem ? ", item required" : ""}) is ${accepted ? "accepted" : "rejected"}`, () => {
      const r = checkWholeTemplate(value, itemAllowed, requireItem);
      assert.equal(r === undefined, accepted, r);
      if (r !== undefined) assert.ok(r.length > 10);
    });
  }
  test("messages explain the rule", () => {
    assert.equal(checkWholeTemplate(" {{ input.x }}", false, false, "when"), "when must be exactly one {{ … }} template, with nothing outside it (not even spaces).");
    assert.equal(checkWholeTemplate("{{ input.a }}{{ input.b }}", false, false, "items"), "items must hold exactly one expression, not 2.");
    assert.match(checkWholeTemplate(7, false) ?? "", /not a number/);
    assert.equal(checkWholeTemplate("{{ input.x }}", true, true, "itemKey"), "itemKey must use item, the branch's element (e.g. {{ item.id }}).");
  });
});

// -------------------------------------------------------------------------------------------
describe("step references (catalog 5.8, 3.4, 9.4)", () => {
  type R = [string, string | undefined];
  const refs = (body: string): R[] => extractStepReferences(body).map((r) => [r.stepId, r.property]);
  const rows: [string, R[]][] = [
    ["steps.a.output", [["a", "output"]]],
    ["steps.a", [["a", undefined]]],
    ["steps.a.lastOutput.passed", [["a", "lastOutput"]]],
    ["steps.a.allVisits", [["a", "allVisits"]]],
    ["steps.my-step.output", [["my-step", "output"]]],
    ['steps["a b"].output', [["a b", "output"]]],
    ["steps['a b'].lastOutput", [["a b", "lastOutput"]]],
    ['steps["données-brutes"].output', [["données-brutes", "output"]]],
    ['steps["a\\"b"].x', [['a"b', "x"]]],
    ['steps["a"]', [["a", undefined]]],
    ['steps["a"]["output"]', [["a", undefined]]],
    ["steps.a[0]", [["a", undefined]]],
    ["steps.a.0", [["a", undefined]]],
    ["steps.a.output.x.y", [["a", "output"]]],
    ["steps", []],
    ["steps.", []],
    ["steps.0", []],
    ["steps[0]", []],
    ["steps[0].output", []],
    ["steps[x]", []],
    ['steps[ "a" ]', []],
    ['steps["__proto__"].x', []],
    ["steps['prototype']", []],
    ["'steps.ghost.output'", []],
    ['coalesce(input.locale, "steps.ghost.output")', []],
    ["'a \\' steps.x' == steps.y.output", [["y", "output"]]],
    ["input.steps.foo.output", [["foo", "output"]]],
    ["input.pre-steps.foo", [["foo", undefined]]],
    ["input.pre-steps.audit", [["audit", undefined]]],
    ["foo-steps.x", [["x", undefined]]],
    ["xsteps.a", []],
    ["$steps.a", []],
    ["_steps.a", []],
    ["9steps.a", []],
    ["stepsx.a", []],
    ["step.id", []],
    ["(steps.a.output)", [["a", "output"]]],
    ["!steps.a.output", [["a", "output"]]],
    ["steps.a.output == steps.b.lastOutput", [["a", "output"], ["b", "lastOutput"]]],
    ["coalesce(steps.a.output, steps['b c'].allVisits) && steps.c", [["a", "output"], ["b c", "allVisits"], ["c", undefined]]],
    // bodies that fail 5.3/5.4 still yield references
    ["steps.ghost.output;", [["ghost", "output"]]],
    ["steps.a.output + steps.b.output", [["a", "output"], ["b", "output"]]],
    ["steps.new-draft.output", [["new-draft", "output"]]],
    ["steps.a; process.exit(steps.b.x)", [["a", undefined], ["b", "x"]]],
    ["steps.steps.a", [["steps", "a"]]],
    // an unclosed literal hides the rest
    ["'steps.a steps.b", []],
    ["steps.a 'steps.b", [["a", undefined]]],
  ];
  for (const [body, expected] of rows) {
    test(`${JSON.stringify(body)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(refs(body), expected));
  }

  test("offsets cover steps…id and the property", () => {
    const body = 'x == steps.a.output && steps["b c"].lastOutput.k || steps.d';
    const found = extractStepReferences(body);
    assert.deepEqual(
      found.map((r) => body.slice(r.start, r.end)),
      ["steps.a.output", 'steps["b c"].lastOutput', "steps.d"],
    );
    const pre = extractStepReferences("input.pre-steps.foo")[0];
    assert.deepEqual(pre && [pre.start, pre.end], [10, 19]);
  });

  test("stepReferencesOf: every body of a string, with offsets in the string", () => {
    const s = "Use {{ steps.a.output }} and {{ steps['b'].lastOutput }} then {{ input.x }}";
    const found = stepReferencesOf(s);
    assert.deepEqual(found.map((r) => [r.stepId, r.property, s.slice(r.start, r.end)]), [
      ["a", "output", "steps.a.output"],
      ["b", "lastOutput", "steps['b'].lastOutput"],
    ]);
  });

  test("stepReferencesOf: unsafe strings still give references, malformed and plain ones none", () => {
    assert.deepEqual(stepReferencesOf("{{ steps.ghost.output; }}").map((r) => r.stepId), ["ghost"]);
    assert.deepEqual(stepReferencesOf("{{ steps.a.output }} and {{ steps.b.output").map((r) => r.stepId), []);
    assert.deepEqual(stepReferencesOf("{{ steps.a.output }} }}"), []);
    assert.deepEqual(stepReferencesOf("steps.a.output"), []);
    assert.deepEqual(stepReferencesOf("{{ 'steps.ghost.output' }}"), []);
    assert.deepEqual(stepReferencesOf("{{{ steps.a.output }}}").map((r) => r.stepId), ["a"]);
    assert.deepEqual(
      stepReferencesOf("{{ steps.lookup.output.x }} and {{ steps.a.output }} {{ steps.lookup.output }}").map((r) => r.stepId),
      ["lookup", "a", "lookup"],
    );
  });
});

// -------------------------------------------------------------------------------------------
describe("conformance corpus rows (strings whose labels show whether expression.invalid fired)", () => {
  // [string, item allowed, accepted]: a sample from test/corpus/conformance (stem in the comment).
  const rows: [string, boolean, boolean][] = [
    ["{{}}", false, false], // expr--empty-braces
    ["Summarize {{ input.releaseTag }", false, false], // expr--unclosed
    ["Use }} carefully", false, false], // expr--stray-closing
    ["{{ !input.flag }}", false, false], // expr--negation-not-supported
    ["{{ `x` }}", false, false], // expr--backtick
    ["{{ await(input.job) }}", false, false], // expr--await-word
    ["{{ bad( }}", false, false], // expr--key-with-space-and-dot
    ['{{ coalesce(input.mode, "global") }}', false, false], // expr--forbidden-word-in-literal
    ["{{ hmac(input.k, input.v, input.w) }}", false, false], // expr--arity-hmac-three
    ["{{ input . name }}", false, false], // expr--path-with-spaces
    ["{{ input.a }} and {{ input.b", false, false], // expr--unscannable-mixed
    ["{{ input.body; process.kill(0) }}", false, false], // expr--semicolon-process
    ["{{ input.n > 1e3 }}", false, false], // expr--number-exponent-literal
    ["{{ json({a: 1}) }}", false, false], // expr--nested-braces
    ["{{ sha256() }}", false, false], // expr--arity-sha256-zero
    ["{{ steps.ghost.output; }}", false, false], // quirk--unsafe-expression-still-references
    ["{{ steps.new-draft.output }}", false, false], // expr--new-keyword-in-step-id
    ["{{ trim(input.name) }}", false, false], // expr--unknown-function
    ["{{ item.count + 1 }}", true, false], // expr--arithmetic
    ["{{ item.id; }}", true, false], // expr--system-and-prompt-both
    ["{{ process.env.SECRET }}", true, false], // expr--system-and-prompt-both
    ["Topic: {{ input.topic }}\nCount: {{ input.papers.length() }}\n", false, false], // yaml--expression-errors-in-block-scalar
    ["export async function run({ input }) {\n  if (input) { return { ok: true }; }}\n", false, false], // expr--code-content-with-double-brace
    ["Dates are ISO-8601: {{ date(input.createdAt) }}", false, true], // valid--expression-functions
    ["{{ len(input.items) >= 1 && input.releaseTag !== null || false }}", false, true], // valid--expression-functions
    ["{{ input['locale'] }} {{ input.items[0].id }} {{ steps['load'].output[\"nested key\"] }} {{ -1.5 < 2 }} {{ 'a' === \"a\" }} {{ null }} {{ true }} {{ workflow.metadata.name }} {{ step.id }}", false, true], // valid--expression-literals-and-brackets
    ["{{ len(input.items) > len(input.invoiceId) }} {{ lower(input.a) == upper(input.b) }}", false, true], // valid--comparison-of-function-results
    ["{{ input.item }} {{ input.items }} {{ input.item_count }}", false, true], // valid--item-as-property-name-outside-parallel
    ["{{ input.pre-steps.audit }}", false, true], // quirk--hyphen-steps-segment-is-a-step-reference
    ["{{ 'steps.ghost.output' }}", false, true], // quirk--string-literal-is-not-a-reference
    ['{{ coalesce(input.locale, "steps.ghost.output") }}', false, true], // valid--string-literal-step-reference-ignored
    ["{{ steps }}", false, true], // valid--steps-root-bare
    ["Use {{ steps['step one'].output }}", false, true], // valid--ids-with-spaces-and-symbols
    ['Résume {{ steps["données-brutes"].output }} — merci ✓', false, true], // valid--unicode-ids-bracket-reference
    ["翻訳してください: {{ input['料理'] }} 🍣", false, true], // yaml--unicode-and-emoji-valid
    ["Pick a bucket for {{ json(steps.as-array.output) }}", false, true], // valid--all-output-modes-chain
    ["Write notes for {{ len(steps.commits.output) }} commits", false, true], // yaml--flow-style-document-valid
    ["Use {{ steps.load-item.output }} for {{ item.id }}", true, true], // step-undeclared--in-body-sibling
    ["{{ steps.ctx.lastOutput }} {{ item }}", true, true], // quirk--lastoutput-external-needs-declaration
    ["Process {{ item }}. Prior feedback: {{ steps.review.lastOutput.feedback }}", true, true], // cycle--spec-worked-example-shape
  ];
  for (const [s, itemAllowed, accepted] of rows) {
    test(`${JSON.stringify(s).slice(0, 90)} ${accepted ? "is accepted" : "fires expression.invalid"}`, () => {
      const r = checkTemplateString(s, itemAllowed);
      assert.equal(r.status === "ok" || r.status === "plain", accepted, r.message);
    });
  }
  const whole: [unknown, boolean, boolean, boolean][] = [
    // [value, itemAllowed, requireItem, accepted]
    [" {{ steps.a.output.ok }}", false, false, false], // expr--decision-when-leading-space
    ["steps.a.output.ok", false, false, false], // expr--decision-when-no-braces
    ["{{ steps.a.output }} ", false, false, false], // quirk--when-trailing-whitespace
    ["{{ steps.a.output.x }}{{ steps.a.output.y }}", false, false, false], // expr--decision-when-two-templates
    ["{{ steps.grade.output.score < 50 || steps.grade.output.score == null }}", false, false, true], // valid--decision-many-cases
    ["{{ steps.review.lastOutput == 'pass' }}", false, false, true], // valid--loop-allvisits-history
    ["{{ item.priority == 'low' }}", true, false, true], // valid--parallel-decision-on-item
    ["{{ item.children }}", false, false, false], // parallel-items--item-at-top-level
    ["{{ input.a }}{{ input.b }}", false, false, false], // parallel-items--two-templates
    ["{{ input.items.filter(x => x) }}", false, false, false], // parallel-items--unsafe
    ["input.items", false, false, false], // parallel-items--no-braces
    ["{{ steps.list.output }}", false, false, true], // valid--parallel-items-from-step
    ["{{ sha256(item) }}", true, true, true], // valid--parallel-items-from-step
    ["item.id", true, true, false], // parallel-item-key--no-braces
    ["{{ input.service }}", true, true, false], // parallel-item-key--input-root
    ["{{ item.id }}-v1", true, true, false], // parallel-item-key--suffix-text
    ["{{ sha256(input.items) }}", true, true, false], // parallel-item-key--hash-of-input
    [undefined, true, true, false], // parallel-invalid--legacy-over-as
  ];
  for (const [value, itemAllowed, requireItem, accepted] of whole) {
    test(`whole-string ${JSON.stringify(value) ?? "undefined"} is ${accepted ? "accepted" : "rejected"}`, () =>
      assert.equal(checkWholeTemplate(value, itemAllowed, requireItem) === undefined, accepted));
  }
});

// Every checked string of every labelled document of the corpus.
describe("conformance corpus, every checked string", () => {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  for (const dir of [CONFORMANCE, REALWORLD]) {
    test(relative(process.cwd(), dir), () => {
      let checked = 0;
      const failures: string[] = [];
      for (const f of corpusCases(dir).map((c) => c.name)) {
        const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
        if (!m) continue;
        let doc: unknown;
        const text = readFileSync(join(dir, f), "utf8");
        try {
          doc = m[2] === "json" ? JSON.parse(text) : parseYaml(text);
        } catch {
          continue;
        }
        const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as { findings: { code: string; path: string }[] };
        const fired = (code: string, path: string): boolean => label.findings.some((x) => x.code === code && x.path === path);
        const expect = (what: string, path: string, got: boolean, accepted: boolean): void => {
          checked++;
          if (got !== accepted) failures.push(`${m[1]} ${path} ${what}: expected ${accepted ? "accepted" : "rejected"}`);
        };
        const strings = (v: unknown, path: string, out: [string, string][], depth: number): void => {
          if (depth > 200) return;
          if (typeof v === "string") out.push([path, v]);
          else if (Array.isArray(v)) v.forEach((x, i) => strings(x, `${path}[${i}]`, out, depth + 1));
          else if (isObj(v)) for (const k of Object.keys(v)) strings(v[k], `${path}.${k}`, out, depth + 1);
        };
        const list = (steps: unknown[], base: string, itemAllowed: boolean): void => {
          steps.forEach((st, i) => {
            const S = `${base}[${i}]`;
            if (!isObj(st) || typeof st.id !== "string" || st.id === "" || /[.[\]]/.test(st.id) || st.id.includes("@attempt_")) return;
            const out: [string, string][] = [];
            if (st.uses !== "decision" && st.uses !== "parallel" && st.with !== undefined) strings(st.with, `${S}.with`, out, 0);
            if (st.input !== undefined) strings(st.input, `${S}.input`, out, 0);
            for (const [path, s] of out) {
              const r = checkTemplateString(s, itemAllowed);
              expect(JSON.stringify(s).slice(0, 60), path, r.status === "ok" || r.status === "plain", !fired("expression.invalid", path));
            }
            const w = st.with;
            if (st.uses === "decision" && isObj(w) && Array.isArray(w.cases)) {
              w.cases.forEach((c: unknown, k: number) => {
                if (isObj(c) && typeof c.when === "string" && typeof c.to === "string" && c.to !== "") {
                  const path = `${S}.with.cases[${k}].when`;
                  expect("when", path, checkWholeTemplate(c.when, itemAllowed) === undefined, !fired("expression.invalid", path));
                }
              });
            }
            if (st.uses === "parallel" && isObj(w)) {
              expect("items", `${S}.with.items`, checkWholeTemplate(w.items, itemAllowed) === undefined, !fired("parallel.invalid_items", `${S}.with.items`));
              expect("itemKey", `${S}.with.itemKey`, checkWholeTemplate(w.itemKey, true, true) === undefined, !fired("parallel.invalid_item_key", `${S}.with.itemKey`));
              if (Array.isArray(st.steps)) list(st.steps, `${S}.steps`, true);
            }
          });
        };
        if (isObj(doc) && Array.isArray(doc.steps)) list(doc.steps, "$.steps", false);
      }
      assert.deepEqual(failures, []);
      assert.ok(checked > 100, `only ${checked} strings checked`);
    });
  }
});

// -------------------------------------------------------------------------------------------
describe("tolerant parser", () => {
  const strip = (n: ExprNode | undefined): unknown => {
    if (!n) return undefined;
    switch (n.kind) {
      case "path":
        return ["path", n.root, ...n.segments.map((s) => (s.kind === "name" ? s.name : s.value))];
      case "call":
        return ["call", n.name, ...n.args.map(strip)];
      case "literal":
        return ["lit", n.value];
      case "binary":
        return [n.op, strip(n.left), strip(n.right)];
      case "error":
        return ["error", strip(n.partial)];
    }
  };
  const rows: [string, unknown][] = [
    ["input.a", ["path", "input", "a"]],
    ['steps["a b"].output[0]', ["path", "steps", "a b", "output", 0]],
    ["'x'", ["lit", "x"]],
    ['"a\\"b"', ["lit", 'a"b']],
    ["-1.5", ["lit", -1.5]],
    ["true", ["lit", true]],
    ["null", ["lit", null]],
    ["coalesce(input.a, 'x')", ["call", "coalesce", ["path", "input", "a"], ["lit", "x"]]],
    ["input.a == 1 && input.b || input.c", ["||", ["&&", ["==", ["path", "input", "a"], ["lit", 1]], ["path", "input", "b"]], ["path", "input", "c"]]],
    ["input.a || input.b || input.c", ["||", ["||", ["path", "input", "a"], ["path", "input", "b"]], ["path", "input", "c"]]],
    ["len(x.y) >= 2", [">=", ["call", "len", ["error", undefined]], ["lit", 2]]],
    ["steps.a.", ["error", ["path", "steps", "a"]]],
    ["input.items.filter(x)", ["error", ["path", "input", "items", "filter"]]],
    ["coalesce(input.a, st", ["error", ["call", "coalesce", ["path", "input", "a"], ["error", undefined]]]],
  ];
  for (const [body, shape] of rows) {
    test(`${JSON.stringify(body)}`, () => assert.deepEqual(strip(parseExpression(body).node), shape));
  }

  test("offsets of nodes and errors", () => {
    const body = "coalesce(steps.a.output, input['k']) == 'x'";
    const { node, errors } = parseExpression(body);
    assert.deepEqual(errors, []);
    assert.ok(node && node.kind === "binary");
    assert.equal(node.opStart, 37);
    const call = node.left;
    assert.ok(call.kind === "call");
    assert.equal(body.slice(call.nameStart, call.nameEnd), "coalesce");
    assert.equal(body.slice(call.start, call.end), "coalesce(steps.a.output, input['k'])");
    const [p1, p2] = call.args;
    assert.ok(p1 && p1.kind === "path" && p2 && p2.kind === "path");
    assert.equal(body.slice(p1.rootStart, p1.rootEnd), "steps");
    assert.deepEqual(p1.segments.map((s) => body.slice(s.start, s.end)), [".a", ".output"]);
    assert.deepEqual(p2.segments.map((s) => body.slice(s.start, s.end)), ["['k']"]);
    const right = node.right;
    assert.ok(right.kind === "literal");
    assert.equal(body.slice(right.start, right.end), "'x'");

    const bad = parseExpression("input.a + 1");
    assert.equal(bad.errors.length, 1);
    assert.deepEqual([bad.errors[0]?.start, bad.errors[0]?.end], [8, 11]);
    const unknown = parseExpression("trim(input.a)");
    assert.deepEqual([unknown.errors[0]?.start, unknown.errors[0]?.end], [0, 4]);
    const dot = parseExpression("steps.a.");
    assert.deepEqual([dot.errors[0]?.start, dot.errors[0]?.end], [7, 8]);
  });

  test("several errors are all reported", () => {
    const { errors } = parseExpression("foo(1) || input.0 && 1e3");
    assert.equal(errors.length, 3);
  });

  test("errors are empty exactly when the grammar accepts (safety aside)", () => {
    for (const body of ["input.a", "a < b < c", "1e3", "coalesce(input.a)", "steps[0]", "item"]) {
      const accepted = parseExpression(body).errors.length === 0;
      assert.equal(accepted, checkExpressionBody(body, true) === undefined || body === "steps[0]", body);
    }
  });

  test(`nesting deeper than ${MAX_EXPRESSION_NESTING} is refused without recursion`, () => {
    const deep = (n: number): string => "json(".repeat(n) + "input.a" + ")".repeat(n);
    assert.ok(ok(deep(MAX_EXPRESSION_NESTING)));
    assert.match(checkExpressionBody(deep(MAX_EXPRESSION_NESTING + 1), false) ?? "", /nested too deeply/);
    assert.match(checkExpressionBody(deep(100000), false) ?? "", /nested too deeply/);
    assert.equal(checkTemplateString(`{{ ${"[".repeat(50000)} }}`, false).status, "unsafe");
  });
});

// -------------------------------------------------------------------------------------------
describe("completionContextAt", () => {
  const at = (text: string) => {
    const i = text.indexOf("|");
    const body = i < 0 ? text : text.slice(0, i) + text.slice(i + 1);
    return completionContextAt(body, i < 0 ? body.length : i);
  };
  const rows: [string, object][] = [
    ["", { kind: "root", segments: [], prefix: "", replaceStart: 0 }],
    ["inp", { kind: "root", segments: [], prefix: "inp", replaceStart: 0 }],
    ["coalesce(input.a, st", { kind: "root", segments: [], prefix: "st", replaceStart: 18 }],
    ["coalesce(input.a,st", { kind: "root", segments: [], prefix: "st", replaceStart: 17 }],
    ["input.a == ", { kind: "root", segments: [], prefix: "", replaceStart: 11 }],
    ["input.a && up", { kind: "root", segments: [], prefix: "up", replaceStart: 11 }],
    ["steps.", { kind: "steps", segments: ["steps"], prefix: "", replaceStart: 6 }],
    ["steps.dr", { kind: "steps", segments: ["steps"], prefix: "dr", replaceStart: 6 }],
    ["steps.new-dr", { kind: "steps", segments: ["steps"], prefix: "new-dr", replaceStart: 6 }],
    ["steps.a.", { kind: "stepProperty", stepId: "a", segments: ["steps", "a"], prefix: "", replaceStart: 8 }],
    ["steps.a.last", { kind: "stepProperty", stepId: "a", segments: ["steps", "a"], prefix: "last", replaceStart: 8 }],
    ["steps.a-b.o", { kind: "stepProperty", stepId: "a-b", segments: ["steps", "a-b"], prefix: "o", replaceStart: 10 }],
    ['steps["a b"].', { kind: "stepProperty", stepId: "a b", segments: ["steps", "a b"], prefix: "", replaceStart: 13 }],
    ["steps.a.output.x", { kind: "path", stepId: "a", segments: ["steps", "a", "output"], prefix: "x", replaceStart: 15 }],
    ["steps.a.output[0].", { kind: "path", stepId: "a", segments: ["steps", "a", "output", "0"], prefix: "", replaceStart: 18 }],
    ["input.", { kind: "path", segments: ["input"], prefix: "", replaceStart: 6 }],
    ["input.user.na", { kind: "path", segments: ["input", "user"], prefix: "na", replaceStart: 11 }],
    ["len(item.", { kind: "path", segments: ["item"], prefix: "", replaceStart: 9 }],
    ["x == steps.a.|output", { kind: "stepProperty", stepId: "a", segments: ["steps", "a"], prefix: "", replaceStart: 13 }],
    ["inp|ut.a", { kind: "root", segments: [], prefix: "inp", replaceStart: 0 }],
    ['steps["', { kind: "steps", segments: ["steps"], prefix: "", replaceStart: 7 }],
    ["steps['my st", { kind: "steps", segments: ["steps"], prefix: "my st", replaceStart: 7 }],
    ["input.a == 'ste", { kind: "none" }],
    ["foo.", { kind: "none" }],
    ["len(input.a).", { kind: "none" }],
    ["input. a", { kind: "root", segments: [], prefix: "a", replaceStart: 7 }],
    ["steps .", { kind: "none" }],
    ["1.5", { kind: "none" }],
    ["input[", { kind: "none" }],
    ["xsteps.", { kind: "none" }],
  ];
  for (const [text, expected] of rows) {
    test(JSON.stringify(text), () => {
      const got = at(text) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(got[k], v, `${k} of ${JSON.stringify(got)}`);
    });
  }
  test("templateAt finds the (possibly unclosed) template around the cursor", () => {
    assert.deepEqual(templateAt("Hi {{ steps.a.", 14), { start: 3, bodyStart: 5, body: " steps.a.", closed: false });
    assert.deepEqual(templateAt("Hi {{ input.a }} x", 10), { start: 3, bodyStart: 5, body: " input.a ", closed: true });
    assert.equal(templateAt("Hi {{ input.a }} x", 17), undefined);
    assert.equal(templateAt("Hi { input.a", 8), undefined);
    assert.equal(templateAt("no template", 3), undefined);
    assert.equal(templateAt("{{ a", 99), undefined);
    const s = "x {{ coalesce(input.a, st }}";
    const t = templateAt(s, 25);
    assert.ok(t);
    assert.deepEqual(completionContextAt(t.body, 25 - t.bodyStart), { kind: "root", segments: [], prefix: "st", replaceStart: 19 });
  });

  test("offsets out of range are clamped", () => {
    assert.equal(completionContextAt("inp", 99).prefix, "inp");
    assert.equal(completionContextAt("inp", -5).replaceStart, 0);
    assert.equal(completionContextAt("inp", Number.NaN).prefix, "inp");
  });
});

// -------------------------------------------------------------------------------------------
// Literal transcriptions of the catalog's regex-based rules, used as oracles for the optimised code.
const oracleScan = (s: string): { malformed: boolean; bodies: string[] } => {
  const re = /\{\{([^{}]+)\}\}/g;
  const bodies: string[] = [];
  let rest = s;
  for (const m of s.matchAll(re)) {
    bodies.push((m[1] ?? "").trim());
    rest = rest.replace(m[0], "");
  }
  return { malformed: rest.includes("{{") || rest.includes("}}"), bodies };
};
const oracleUsesItem = (body: string): boolean =>
  /(?:^|[^A-Za-z0-9_$.\-])item(?=$|[\s.[\],=!<>|&)])/.test(body.replace(/"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'/g, ""));

describe("properties", () => {
  const templateChars = fc.string({ unit: fc.constantFrom("{", "}", "{", "}", " ", "a", ".", "x", "\n") });
  const exprChars = fc.string({
    unit: fc.constantFrom(
      "steps", "step", "item", "input", "workflow", ".", "[", "]", "(", ")", "'", '"', "\\", ",", " ", "|", "&", "=", "!", "<", ">",
      "-", "0", "1", "a", "_", "$", "len", "coalesce", "new", "x", "e", "+", ";", "\t", "\u00a0",
    ),
    maxLength: 30,
  });
  const anyString = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), templateChars, exprChars);

  test("no exported function throws on any string, and results are deterministic", () => {
    fc.assert(
      fc.property(anyString, fc.boolean(), fc.integer({ min: -5, max: 60 }), (s, itemAllowed, offset) => {
        const run = () => [
          checkTemplateString(s, itemAllowed),
          checkExpressionBody(s, itemAllowed),
          checkWholeTemplate(s, itemAllowed, true),
          checkWholeTemplate(`{{${s}}}`, itemAllowed),
          usesItemRoot(s),
          extractStepReferences(s),
          stepReferencesOf(s),
          stepReferencesOf(`{{ ${s} }}`),
          parseExpression(s),
          completionContextAt(s, offset),
          templateAt(s, offset),
          scanTemplates(s),
        ];
        assert.deepEqual(run(), run());
      }),
      { numRuns: 3000 },
    );
  });

  test("non-string inputs do not throw either", () => {
    for (const v of [undefined, null, 5, {}, [], true]) {
      const x = v as unknown as string;
      checkTemplateString(x, false);
      checkExpressionBody(x, false);
      checkWholeTemplate(v, false, true);
      usesItemRoot(x);
      extractStepReferences(x);
      stepReferencesOf(x);
      parseExpression(x);
      completionContextAt(x, 0);
    }
  });

  test("the scanner agrees with the catalog's regex-and-replace description", () => {
    fc.assert(
      fc.property(fc.oneof(templateChars, anyString), (s) => {
        const o = oracleScan(s);
        const r = scanTemplates(s);
        assert.equal(r.malformedAt !== undefined, o.malformed, JSON.stringify(s));
        assert.deepEqual(r.matches.map((m) => m.body), o.bodies);
        const c = checkTemplateString(s, true);
        if (!s.includes("{{") && !s.includes("}}")) assert.equal(c.status, "plain");
        else if (o.malformed) assert.equal(c.status, "malformed");
        else assert.notEqual(c.status, "plain");
      }),
      { numRuns: 5000 },
    );
  });

  test("usesItemRoot agrees with the catalog's pattern on string-literal-deleted text", () => {
    fc.assert(fc.property(exprChars, (s) => assert.equal(usesItemRoot(s), oracleUsesItem(s), JSON.stringify(s))), { numRuns: 5000 });
  });

  test("trimming inside expressions matches String.prototype.trim for every code unit", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (ch === "-" || ch === "=" || ch === "<" || ch === ">" || ch === "!" || (ch >= "0" && ch <= "9")) continue;
      assert.equal(ok(`input.a ==${ch}1`), ch.trim() === "", `U+${c.toString(16)}`);
    }
  });

  // Random well-formed expressions, printed with random spacing, are accepted and parse back.
  const ident = fc.stringMatching(/^[a-z_$][a-z0-9_$-]{0,6}$/).filter((w) => !/\b(?:new|eval|global|process|import|await|function|require|constructor|prototype)\b/.test(w) && !w.includes("__proto__"));
  const sp = fc.constantFrom("", " ", "  ", "\t");
  const { expr } = fc.letrec<{ expr: string; operand: string; path: string; literal: string; call: string; cmp: string }>((tie) => ({
    path: fc
      .tuple(
        fc.constantFrom("input", "steps", "step", "workflow", "item"),
        fc.array(fc.oneof(ident.map((w) => "." + w), fc.nat(99).map((n) => `[${n}]`), ident.map((w) => `["${w} x"]`), ident.map((w) => `['${w}']`)), { maxLength: 4 }),
      )
      .map(([r, segs]) => r + segs.join(""))
      .filter((p) => !/^steps\[\d/.test(p)),
    literal: fc.oneof(
      fc.constantFrom("true", "false", "null", "0", "-0", "12", "-3.25", "''", '"a b"', "'it\\'s'", '"x\\\\"'),
      fc.integer().map(String),
    ),
    call: fc
      .tuple(fc.constantFrom(...EXPRESSION_FUNCTIONS), fc.array(tie("expr"), { minLength: 1, maxLength: 3, depthIdentifier: "expr" }), sp, sp)
      .filter(([f, args]) => args.length >= f.minArgs && (f.maxArgs === undefined || args.length <= f.maxArgs))
      .map(([f, args, a, b]) => `${f.name}${a}(${b}${args.join(`${b},${a}`)}${a})`),
    // Bounded depth: past it the first alternative (a path) is chosen.
    operand: fc.oneof({ maxDepth: 3, depthIdentifier: "expr" }, tie("path"), tie("literal"), tie("call")),
    cmp: fc.oneof(
      tie("operand"),
      fc.tuple(tie("operand"), fc.constantFrom("===", "!==", ">=", "<=", "==", "!=", ">", "<"), tie("operand"), sp, sp).map(([l, op, r, a, b]) => `${l}${a}${op}${b}${r}`),
    ),
    expr: fc
      .array(fc.array(tie("cmp"), { minLength: 1, maxLength: 3, depthIdentifier: "expr" }), { minLength: 1, maxLength: 3, depthIdentifier: "expr" })
      .chain((ors) => sp.map((s) => ors.map((ands) => ands.join(`${s}&&${s}`)).join(`${s}||${s}`))),
  }));

  test("well-formed expressions are accepted and parse without errors", () => {
    fc.assert(
      fc.property(expr, (body) => {
        assert.equal(checkExpressionBody(body.trim(), true), undefined, body);
        assert.deepEqual(parseExpression(body).errors, []);
        assert.equal(checkTemplateString(`Text {{ ${body} }} more`, true).status, "ok");
      }),
      { numRuns: 1500 },
    );
  });

  test("appending a second comparison to a comparison is always rejected", () => {
    fc.assert(
      fc.property(expr, (body) => {
        const t = `input.a == input.b < ${body.includes("||") || body.includes("&&") ? "input.c" : body}`;
        assert.notEqual(checkExpressionBody(t, true), undefined, t);
      }),
      { numRuns: 300 },
    );
  });
});

// -------------------------------------------------------------------------------------------
describe("performance", () => {
  // Counted in characters read (work-count.ts), not in time: doubling the input at most doubles the work.
  test("large inputs stay linear", () => {
    const cases: Array<[string, (n: number) => () => void]> = [
      ["template text", (n) => () => checkTemplateString("x {{ input.a }} ".repeat(n), false)],
      ["unclosed {{", (n) => () => checkTemplateString("{{".repeat(n), false)],
      ["unclosed {{ a", (n) => () => checkTemplateString("{{ a".repeat(n), false)],
      ["a long || chain", (n) => () => checkExpressionBody("input.a || ".repeat(n) + "input.b", false)],
      ["an unterminated string of escapes", (n) => () => checkExpressionBody('"' + '\\"'.repeat(n), false)],
      ["item after escaped quotes", (n) => () => usesItemRoot("'\\'".repeat(n) + " item")],
      ["step references", (n) => () => extractStepReferences("steps.a.b ".repeat(n))],
      ["completion context", (n) => () => completionContextAt("input.a && ".repeat(n) + "steps.a.", 1e9)],
    ];
    for (const [what, run] of cases) assertLinearWork(what, run, 10_000, 200);
  });
});
