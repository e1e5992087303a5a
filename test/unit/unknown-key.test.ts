// lwir.unknown_key (service/unknownKeys.ts): a misspelt key the runtime ignores, in an object whose keys
// the format defines; did-you-mean, "Rename to" (applied by `lwir validate --fix` when one key is close),
// no noise on the corpora (pinned), open objects (metadata, free-form `with`, JSON Schemas) left alone.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stringify as toYaml } from "yaml";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { autofixText } from "../../server/src/service/autofix";
import { quickFixes } from "../../server/src/service/codeActions";
import { applyRuleLevels, toDiagnostics, type LwirDiagnosticData } from "../../server/src/service/diagnostics";
import { applyEdits } from "../../server/src/service/edits";
import { UNKNOWN_KEY, findUnknownKeys } from "../../server/src/service/unknownKeys";
import { type Json, aiStep, codeRunStep, decisionStep, parallelStep, withSteps } from "./lwir-fixtures";

const keysOf = (doc: unknown) => findUnknownKeys(doc).map((u) => `${u.segments.join(".")} → ${u.suggestions.join("|")}`);

function mutate(doc: Json, edit: (d: Record<string, any>) => void): Json {
  const copy = JSON.parse(JSON.stringify(doc));
  edit(copy);
  return copy;
}
function rename(obj: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(obj);
  for (const k of Object.keys(obj)) delete obj[k];
  for (const [k, v] of entries) obj[k === from ? to : k] = v;
}

describe("which keys are unknown", () => {
  const valid = withSteps([aiStep("draft"), decisionStep("route", { default: "end", cases: [{ when: "{{ steps.draft.output == 'x' }}", to: "end" }] }, { needs: ["draft"] })]);

  test("the issue's three: permission at the top level, need on a step, whenn in a case", () => {
    const doc = mutate(valid, (d) => {
      rename(d, "permissions", "permission");
      d.steps[1].need = d.steps[1].needs;
      delete d.steps[1].needs;
      rename(d.steps[1].with.cases[0], "when", "whenn");
    });
    assert.deepEqual(keysOf(doc), ["permission → permissions", "steps.1.need → needs", "steps.1.with.cases.0.whenn → when"]);
  });

  test("every closed object: top level, input/output holders, permissions, step, output, onFailure, repair, fixer, decision and parallel with, fanIn, cardinality, sandbox, files", () => {
    const par = parallelStep("fan", [aiStep("each")]);
    const code = codeRunStep("run");
    const doc = mutate(withSteps([aiStep("a"), par, code]), (d) => {
      // each known key renamed to a misspelling of it (a key whose known neighbour is there is no misspelling)
      rename(d, "apiVersion", "apiVersoin");
      rename(d.input, "schema", "shema");
      rename(d.permissions, "models", "model");
      d.steps[0].maxVisit = 2;
      rename(d.steps[0].output, "mode", "mod");
      d.steps[0].onFailure = { repiar: {}, fixer: { maxAttempt: 1 } };
      rename(d.steps[1].with.fanIn, "order", "oder");
      rename(d.steps[1].with.cardinality, "kind", "kinds");
      rename(d.steps[1].with, "maxBranches", "maxBranch");
      d.steps[1].steps[0].sensitiv = true;
      rename(d.steps[2].with.sandbox, "network", "netwrk");
      rename(d.steps[2].with.files["main.ts"], "content", "contnet");
    });
    assert.deepEqual(keysOf(doc).sort(), [
      "apiVersoin → apiVersion",
      "input.shema → schema",
      "permissions.model → models",
      "steps.0.maxVisit → maxVisits",
      "steps.0.onFailure.fixer.maxAttempt → maxAttempts",
      "steps.0.onFailure.repiar → repair",
      "steps.0.output.mod → mode",
      "steps.1.steps.0.sensitiv → sensitive",
      "steps.1.with.cardinality.kinds → kind",
      "steps.1.with.fanIn.oder → order",
      "steps.1.with.maxBranch → maxBranches",
      "steps.2.with.files.main.ts.contnet → content",
      "steps.2.with.sandbox.netwrk → network",
    ].sort());
  });

  test("open objects are left alone: metadata, the with of ai.generate/tool.call/code.run, a step's input, JSON Schemas", () => {
    const doc = mutate(withSteps([aiStep("a"), codeRunStep("run")]), (d) => {
      d.metadata.owner = "team";
      d.metadata.nam = "close to name, but metadata is open";
      d.steps[0].with.modle = "passed on to the model call as is";
      d.steps[0].input = { need: 1, permission: 2 };
      d.steps[1].with.entrypont = "free-form with";
      d.input.schema = { type: "object", propertie: {} }; // a schema keyword: the schema check's business
    });
    assert.deepEqual(keysOf(doc), []);
  });

  test("only misspellings: an extra key close to no known key (notes, comment, description) is an annotation", () => {
    const doc = mutate(valid, (d) => {
      d.notes = "x";
      d.steps[0].description = "what it does";
      d.steps[1].with.comment = "{{ unchecked";
    });
    assert.deepEqual(keysOf(doc), []);
  });

  test("a key whose known neighbour is already there is not a misspelling of it; cache is never proposed", () => {
    const doc = mutate(valid, (d) => {
      d.steps[1].need = ["x"]; // needs is there
      d.steps[0].cach = true; // close only to cache, which the runtime refuses
    });
    assert.deepEqual(keysOf(doc), []);
  });

  test("odd values do not throw: not objects, arrays where objects go, deep parallel nesting", () => {
    for (const odd of [null, 3, "x", [], { steps: "x" }, { steps: [null, 1, [], { uses: "parallel", steps: [{ uses: "parallel", steps: [{ ned: 1 }] }] }] }]) {
      assert.doesNotThrow(() => findUnknownKeys(odd));
    }
    assert.deepEqual(keysOf({ steps: [{ uses: "parallel", steps: [{ uses: "parallel", steps: [{ uses: "x", need: 1 }] }] }] }), ["steps.0.steps.0.steps.0.need → needs"]);
  });
});

describe("the diagnostic and its fix", () => {
  const base = withSteps([aiStep("draft"), aiStep("polish", { needs: ["draft"], with: { model: "model-a", prompt: "{{ steps.draft.output }}" } })]);
  const typo = mutate(base, (d) => rename(d.steps[1], "needs", "need"));

  for (const format of ["json", "yaml"] as const) {
    test(`${format}: a warning on the key, with its own code; "Rename to needs" fixes it`, () => {
      const text = format === "json" ? JSON.stringify(typo, null, 2) : toYaml(typo);
      const analysis = analyzeText(text, format);
      const diagnostic = toDiagnostics(analysis).find((d) => d.code === UNKNOWN_KEY)!;
      assert.ok(diagnostic);
      assert.equal(diagnostic.severity, 2);
      const { start, end } = diagnostic.range;
      const line = text.split("\n")[start.line];
      assert.equal(line.slice(start.character, end.character), format === "json" ? '"need"' : "need");
      assert.match(String(diagnostic.message), /The runtime ignores the key "need" here.*Did you mean "needs"\?/);
      const fixes = quickFixes(analysis, diagnostic.data as LwirDiagnosticData);
      assert.deepEqual(fixes.map((f) => [f.title, f.auto, f.kind]), [["Rename to needs", true, "problem"]]);
      const fixed = analyzeText(applyEdits(text, fixes[0].edits), format);
      assert.equal(fixed.valid, true);
      assert.deepEqual(toDiagnostics(fixed), []);
      // off, like every warning of ours
      assert.deepEqual(applyRuleLevels(toDiagnostics(analysis), { [UNKNOWN_KEY]: "off" }).filter((d) => d.code === UNKNOWN_KEY), []);
    });
  }

  test("two close keys: two fixes, none applied unasked", () => {
    // one edit from tools, two from models: both offered, the nearer first
    const doc = mutate(withSteps([aiStep("a")]), (d) => { d.permissions = { mools: ["model-a"] }; });
    const analysis = analyzeText(JSON.stringify(doc, null, 2), "json");
    const diagnostic = toDiagnostics(analysis).find((d) => d.code === UNKNOWN_KEY)!;
    const fixes = quickFixes(analysis, diagnostic.data as LwirDiagnosticData);
    assert.deepEqual(fixes.map((f) => [f.title, f.auto ?? false]), [["Rename to tools", false], ["Rename to models", false]]);
  });

  test("--fix: renames first, in a round of their own (the add-needs fix would clash with the renamed key)", () => {
    const text = toYaml(typo);
    const result = autofixText(text, "yaml");
    assert.deepEqual(result.titles, ["Rename to needs"]);
    assert.equal(analyzeText(result.text, "yaml").valid, true);
  });
});

describe("the built CLI", () => {
  const tmp = mkdtempSync(join(tmpdir(), "lwir-unknown-key-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const run = (args: string[]) => spawnSync(process.execPath, [resolve("dist/cli.js"), ...args], { encoding: "utf8" });

  test("a warning (exit 0 when nothing else is wrong), --rule turns it off, --fix renames the key", () => {
    const file = join(tmp, "typo.lwir.yaml");
    const good = readFileSync("test/fixtures/cli/tree/valid.lwir.yaml", "utf8");
    const text = good.replace("\npermissions:", "\npermission:").replace("model: gpt-4o-mini", "model: gpt-4o-mini").replace("    needs: [search]", "    need: [search]");
    writeFileSync(file, text);
    const report = run(["validate", "--format", "json", file]);
    const notices = (JSON.parse(report.stdout).files[0].notices as Array<{ code: string; path: string }>).filter((n) => n.code === UNKNOWN_KEY);
    assert.deepEqual(notices.map((n) => n.path), ["$.permission", "$.steps[1].need"]);
    const off = run(["validate", "--format", "json", "--rule", `${UNKNOWN_KEY}=off`, file]);
    assert.deepEqual(JSON.parse(off.stdout).files[0].notices, []);
    const fixed = run(["validate", "--fix", file]);
    assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
    assert.equal(readFileSync(file, "utf8"), good);
  });

  test("a valid workflow with only the misspelling: exit 0, the warning printed", () => {
    const file = join(tmp, "whenn.lwir.json");
    const doc = withSteps([aiStep("a"), decisionStep("route", { default: "end", cases: [{ whenn: "{{ steps.a.output == 'x' }}", to: "end" }] }, { needs: ["a"] })]);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const res = run(["validate", file]);
    // the runtime reads no `when`: decision.case_invalid is its finding; ours names the misspelling
    assert.match(res.stdout, /warning {2}lwir\.unknown_key {2}The runtime ignores the key "whenn" here.*Did you mean "when"\?/);
  });
});

describe("no noise on the corpora (pinned)", () => {
  /** `file path` of each unknown key in the corpus documents that parse (valid or not). */
  function unknownKeysIn(dir: string, validOnly: boolean): string[] {
    const out: string[] = [];
    for (const c of corpusCases(dir)) {
      if (validOnly && !c.label.valid) continue;
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      if (validOnly) assert.equal(analysis.valid, true, c.name);
      if (analysis.document.value === undefined) continue;
      for (const u of findUnknownKeys(analysis.document.value)) out.push(`${c.name} ${u.segments.join(".")}`);
    }
    return out;
  }
  test("conformance: none, valid or not", () => {
    assert.ok(corpusCases(CONFORMANCE).length > 300);
    assert.deepEqual(unknownKeysIn(CONFORMANCE, false), []);
  });
  test("syntax cases and real-world workflows: none", () => {
    assert.deepEqual(unknownKeysIn(SYNTAX, false), []);
    assert.ok(corpusCases(REALWORLD).length > 40);
    assert.deepEqual(unknownKeysIn(REALWORLD, false), []);
  });
  test("examples/: none", () => {
    for (const name of ["release-notes.lwir.json", "support-triage.lwir.yaml", "broken-review.lwir.yaml"]) {
      const text = readFileSync(join("examples", name), "utf8");
      const analysis = analyzeText(text, name.endsWith(".json") ? "json" : "yaml");
      assert.deepEqual(findUnknownKeys(analysis.document.value), [], name);
    }
  });
});
