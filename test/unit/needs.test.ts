// Needs inference (catalog section 7 and 11): inferNeeds and needsToAdd. The property test applies
// every inferred entry to generator documents with injected missing_needs errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseYaml } from "./runtime-yaml";
import { inferNeeds, needsToAdd, type InferredNeed } from "../../server/src/lwir/needs";
import { validateLwir } from "../../server/src/lwir/validate";
import type { PathSegment } from "../../server/src/lwir/types";
import { type Json, aiStep, decisionStep, parallelStep, toolStep, withSteps } from "./lwir-fixtures";
import { GENERATOR } from "../corpus";

function reader(id: string, prompt: string, extra: Json = {}): Json {
  return aiStep(id, { with: { model: "model-a", prompt }, ...extra });
}

/** Appends the inferred entries at value level (creating `needs` where absent). */
function apply(doc: Json, entries: InferredNeed[]): Json {
  const copy = structuredClone(doc);
  for (const e of entries) {
    let step: Json = copy;
    for (const s of e.stepSegments) step = step[s];
    if (step.needs === undefined) step.needs = [];
    step.needs.push(e.id);
  }
  return copy;
}

const brief = (entries: InferredNeed[]) => entries.map((e) => `${JSON.stringify(e.stepSegments)} ${e.id}`);
const codes = (doc: Json) => validateLwir(doc).findings.map((f) => `${f.path} ${f.code}`).sort();

describe("inferNeeds", () => {
  test("a valid document gets nothing", () => {
    const doc = withSteps([toolStep("a"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
    assert.deepEqual(inferNeeds(doc), []);
  });

  test("each undeclared reference, in list order, with before input, once per id", () => {
    const doc = withSteps([
      toolStep("a"),
      toolStep("b", { needs: ["a"] }),
      reader("c", "{{ steps.b.output }} and {{ steps.a.output }} and {{ steps.b.output.x }}", { input: { z: "{{ steps.a.output }}", y: "{{ steps.d.output }}" } }),
      toolStep("d", { with: { tool: "search", args: { q: "{{ steps.a.output }}" } } }),
      reader("e", "{{ steps.c.output }} {{ steps.d.output }}", { needs: ["c"] }),
    ]);
    const entries = inferNeeds(doc);
    assert.deepEqual(brief(entries), ['["steps",2] b', '["steps",2] a', '["steps",2] d', '["steps",3] a', '["steps",4] d']);
    assert.deepEqual(codes(apply(doc, entries)), []);
  });

  test("never an entry that would close a cycle", () => {
    // b needs a; a reads b.output: adding b to a's needs would make a ⇄ b.
    const doc = withSteps([reader("a", "{{ steps.b.output }}"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
    assert.deepEqual(inferNeeds(doc), []);
    assert.deepEqual(needsToAdd(doc, ["steps", 0], "b"), { add: false, reason: "cycle" });
  });

  test("an entry added earlier counts for the cycle check of later ones", () => {
    // a reads b, b reads a, neither declared: the first (a needs b) is added, the second would close a ⇄ b.
    const doc = withSteps([reader("a", "{{ steps.b.output }}"), reader("b", "{{ steps.a.output }}")]);
    const entries = inferNeeds(doc);
    assert.deepEqual(brief(entries), ['["steps",0] b']);
    const after = codes(apply(doc, entries));
    assert.ok(!after.some((c) => c.includes("lwir.invalid_cycle")), after.join("\n"));
    assert.deepEqual(after, ["$.steps[1].with.prompt step.undeclared_dependency"]);
  });

  test("the lastOutput/allVisits back-edge is exempt, not inferred", () => {
    const loop = [
      reader("draft", "Improve {{ steps.critique.lastOutput }} {{ steps.critique.allVisits }}", { maxVisits: 3 }),
      reader("critique", "Critique {{ steps.draft.lastOutput }}", { needs: ["draft"], maxVisits: 3 }),
      decisionStep("gate", { cases: [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }], default: "draft" }, { needs: ["critique"], maxVisits: 3 }),
    ];
    const doc = withSteps(loop);
    assert.deepEqual(codes(doc), []);
    assert.deepEqual(inferNeeds(doc), []);
    assert.deepEqual(needsToAdd(doc, ["steps", 0], "critique"), { add: false, reason: "exempt" });
  });

  test("a back-edge read through .output is left alone: the entry would close the loop", () => {
    const doc = withSteps([
      reader("draft", "Improve {{ steps.critique.output }}", { maxVisits: 3 }),
      reader("critique", "Critique {{ steps.draft.lastOutput }}", { needs: ["draft"], maxVisits: 3 }),
      decisionStep("gate", { cases: [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }], default: "draft" }, { needs: ["critique"], maxVisits: 3 }),
    ]);
    assert.deepEqual(inferNeeds(doc), []);
    assert.deepEqual(needsToAdd(doc, ["steps", 0], "critique"), { add: false, reason: "cycle" });
  });

  test("a lastOutput read of a step that does not reach the reader is inferred", () => {
    const doc = withSteps([toolStep("a"), reader("b", "{{ steps.a.lastOutput }}")]);
    assert.deepEqual(brief(inferNeeds(doc)), ['["steps",1] a']);
  });

  test("parallel bodies: same list only; external and missing steps are left alone", () => {
    const body = [
      reader("one", "{{ item }}"),
      reader("two", "{{ steps.one.output }} {{ steps.ctx.output }} {{ steps.ghost.output }}"),
    ];
    const doc = withSteps([toolStep("ctx"), parallelStep("fan", body, { needs: ["ctx"] })]);
    assert.deepEqual(brief(inferNeeds(doc)), ['["steps",1,"steps",1] one']);
    assert.deepEqual(brief(inferNeeds(doc, { includeExternal: true })), ['["steps",1,"steps",1] one', '["steps",1,"steps",1] ctx']);
    assert.deepEqual(needsToAdd(doc, ["steps", 1, "steps", 1], "ctx"), { add: false, reason: "external" });
    assert.deepEqual(needsToAdd(doc, ["steps", 1, "steps", 1], "ctx", { allowExternal: true }), { add: true, external: true });
    assert.deepEqual(needsToAdd(doc, ["steps", 1, "steps", 1], "ghost"), { add: false, reason: "missing" });
    // A body step cannot read a top-level step its parallel step does not need: missing, not external.
    const noCtx = withSteps([toolStep("ctx"), parallelStep("fan", body)]);
    assert.deepEqual(needsToAdd(noCtx, ["steps", 1, "steps", 1], "ctx", { allowExternal: true }), { add: false, reason: "missing" });
  });

  test("a body sees the entries inferred for its parallel step", () => {
    // fan reads ctx in items without needing it; its body reads ctx too (a missing step until fan needs it).
    const fan = parallelStep("fan", [reader("one", "{{ item }} {{ steps.ctx.output }}")]);
    fan.with.items = "{{ steps.ctx.output }}";
    const doc = withSteps([toolStep("ctx"), fan]);
    assert.deepEqual(codes(doc), ["$.steps terminal.ambiguous", "$.steps[1].steps[0].with.prompt step.missing_dependency", "$.steps[1].with.items step.undeclared_dependency"]);
    const entries = inferNeeds(doc, { includeExternal: true });
    assert.deepEqual(brief(entries), ['["steps",1] ctx', '["steps",1,"steps",0] ctx']);
    assert.deepEqual(codes(apply(doc, entries)), []);
  });

  test("self reads, needs that are not arrays, duplicates and invalid ids are skipped", () => {
    const doc = withSteps([
      toolStep("a"),
      reader("b", "{{ steps.b.output }} {{ steps.a.output }}", { needs: "a" }),
      reader("c", "{{ steps.c.output }} {{ steps.a.output }}"),
      reader("c", "{{ steps.a.output }}"),
      reader("x.y", "{{ steps.a.output }}"),
    ]);
    assert.deepEqual(brief(inferNeeds(doc)), ['["steps",2] a']);
    assert.deepEqual(needsToAdd(doc, ["steps", 1], "a"), { add: false, reason: "needs-not-array" });
    assert.deepEqual(needsToAdd(doc, ["steps", 2], "c"), { add: false, reason: "self" });
    assert.deepEqual(needsToAdd(doc, ["steps", 3], "a"), { add: false, reason: "no-step" });
    assert.deepEqual(needsToAdd(doc, ["steps", 2], "zzz"), { add: false, reason: "not-referenced" });
  });

  test("references in decision when and parallel items count", () => {
    const doc = withSteps([
      toolStep("a"),
      decisionStep("gate", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: "end" }], default: "end" }),
      parallelStep("fan", undefined, { with: { ...parallelStep("fan").with, items: "{{ steps.a.output }}" } }),
    ]);
    assert.deepEqual(brief(inferNeeds(doc)), ['["steps",1] a', '["steps",2] a']);
  });

  test("never an entry that adds a decision-target deadlock", () => {
    // `fix` is a decision target with needs of its own; `after` reading it must not need it.
    const doc = withSteps([
      toolStep("a"),
      decisionStep("gate", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: "fix" }], default: "end" }, { needs: ["a"] }),
      reader("fix", "{{ steps.a.output }}", { needs: ["a"] }),
      reader("after", "{{ steps.fix.output }}"),
    ]);
    assert.deepEqual(needsToAdd(doc, ["steps", 3], "fix"), { add: false, reason: "deadlock" });
    assert.deepEqual(inferNeeds(doc), []);
    // And a target without needs that an ordinary step already needs must not get its first entry.
    const doc2 = withSteps([
      toolStep("a"),
      decisionStep("gate", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: "fix" }], default: "end" }, { needs: ["a"] }),
      reader("fix", "{{ steps.a.output }}"),
      reader("after", "{{ steps.fix.lastOutput }}", { needs: ["fix"] }),
    ]);
    assert.deepEqual(needsToAdd(doc2, ["steps", 2], "a"), { add: false, reason: "deadlock" });
  });
});

// ---- property: generator documents with injected missing_needs errors ------------------------------


interface Generated {
  text: string;
  injected: Array<{ kind: string; stepId: string; path: string; expectedCode: string }>;
}

function generate(args: { steps: number; seed: number | string; errors: number; format: "json" | "yaml" }): Generated {
  const dir = mkdtempSync(join(tmpdir(), "lwir-gen-"));
  const out = join(dir, `doc.lwir.${args.format}`);
  const r = spawnSync(process.execPath, [GENERATOR, "--steps", String(args.steps), "--seed", String(args.seed), "--errors", String(args.errors),
    "--format", args.format, "--out", out], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const injected = args.errors > 0 ? JSON.parse(readFileSync(`${out}.errors.json`, "utf8")) : [];
  return { text: readFileSync(out, "utf8"), injected };
}

describe("inferNeeds on generator documents (property)", () => {
  const cases: Array<{ steps: number; seed: number; errors: number }> = [];
  // Kinds are injected round-robin starting with missing_needs: 1 error is one missing_needs, 10 holds two.
  for (let seed = 1; seed <= 8; seed++) cases.push({ steps: 60 + seed * 10, seed, errors: [1, 10, 12][seed % 3] });
  for (const c of cases) {
    test(`steps ${c.steps}, seed ${c.seed}, errors ${c.errors}`, () => {
      const { text, injected } = generate({ ...c, format: "json" });
      const doc = JSON.parse(text);
      const before = validateLwir(doc).findings;
      const undeclared = before.filter((f) => f.code === "step.undeclared_dependency");
      assert.equal(undeclared.length, injected.filter((e) => e.kind === "missing_needs").length);
      // Section 7 proper (same list only) leaves the reads of external steps; the editor's variant adds them too.
      const sameList = inferNeeds(doc);
      const left = validateLwir(apply(doc, sameList)).findings.filter((f) => f.code === "step.undeclared_dependency");
      for (const f of left) assert.ok(f.segments.filter((s) => s === "steps").length > 1, `${f.path}: only body reads of external steps may remain`);
      assert.equal(sameList.length + left.length, undeclared.length);
      const entries = inferNeeds(doc, { includeExternal: true });
      assert.equal(entries.length, undeclared.length, brief(entries).join("\n"));
      const fixed = apply(doc, entries);
      const after = validateLwir(fixed).findings;
      assert.deepEqual(after.filter((f) => f.code === "step.undeclared_dependency"), []);
      // No new finding: what remains is the other injected errors, untouched.
      const rest = before.filter((f) => f.code !== "step.undeclared_dependency").map((f) => `${f.path} ${f.code}`).sort();
      assert.deepEqual(after.map((f) => `${f.path} ${f.code}`).sort(), rest);
      // The YAML rendering of the same document infers the same entries (checked on a few: it is slow to make).
      if (c.seed <= 3) {
        const yaml = generate({ ...c, format: "yaml" });
        assert.deepEqual(brief(inferNeeds(parseYaml(yaml.text), { includeExternal: true })), brief(entries));
      }
    });
  }

  test("valid generator documents infer nothing", () => {
    for (const seed of [11, 12, 13]) {
      const { text } = generate({ steps: 80, seed, errors: 0, format: "json" });
      assert.deepEqual(inferNeeds(JSON.parse(text)), []);
    }
  });

  test("random removals of needs entries are all restored or left for a reason", () => {
    // Remove needs entries at random from valid documents; whatever inference adds must not add findings,
    // and every undeclared reference it leaves has a stated reason.
    let removedTotal = 0;
    for (const seed of [21, 22, 23, 24]) {
      const doc = JSON.parse(generate({ steps: 60, seed, errors: 0, format: "json" }).text);
      let state = seed * 7919;
      const rand = () => ((state = (state * 48271) % 2147483647) / 2147483647);
      const walk = (steps: Json[], segs: PathSegment[]) => {
        steps.forEach((s, i) => {
          if (Array.isArray(s.needs) && s.needs.length > 0 && rand() < 0.3) {
            s.needs.splice(Math.floor(rand() * s.needs.length), 1);
            removedTotal++;
            if (s.needs.length === 0 && rand() < 0.5) delete s.needs;
          }
          if (Array.isArray(s.steps)) walk(s.steps, [...segs, i, "steps"]);
        });
      };
      walk(doc.steps, ["steps"]);
      const before = validateLwir(doc).findings.map((f) => `${f.path} ${f.code}`);
      const fixed = apply(doc, inferNeeds(doc, { includeExternal: true }));
      const after = validateLwir(fixed).findings.map((f) => `${f.path} ${f.code}`);
      const count = (list: string[]) => list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
      const b = count(before);
      for (const [k, n] of count(after)) assert.ok((b.get(k) ?? 0) >= n, `new finding after inference: ${k}`);
      for (const f of validateLwir(fixed).findings.filter((f) => f.code === "step.undeclared_dependency")) {
        const stepSegments = f.segments.slice(0, f.segments.findIndex((s, k) => k > 0 && (s === "with" || s === "input")));
        const ids = new Set(f.message.match(/steps\.([^\s]+) but/)?.slice(1) ?? []);
        for (const id of ids) assert.equal(needsToAdd(fixed, stepSegments, id, { allowExternal: true }).add, false, `${f.path} ${id}`);
      }
    }
    assert.ok(removedTotal > 10);
  });
});
