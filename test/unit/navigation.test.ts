// service/hover.ts, definition.ts, rename.ts and references.ts: hover, go to definition, find references
// and rename of step ids, models and tools, in JSON and YAML. Fixtures carry named cursor markers
// (`«name»` inside string values, removed before parsing); renames are applied and re-validated.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { Hover, Location, Position, TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { provideHover } from "../../server/src/service/hover";
import { expectedRuleDocsBase } from "../rule-docs";
import { setRuleDocsBase } from "../../server/src/service/ruleDocs";
import { provideDefinition, provideReferences } from "../../server/src/service/definition";
import { providePrepareRename, provideRename } from "../../server/src/service/rename";
import { navigationIndex, stringAt } from "../../server/src/service/references";
import { FAILURE_MODE_DOCS, OUTPUT_MODE_DOCS, STEP_TYPE_DOCS } from "../../server/src/service/snippets";
import { type Json, aiStep, baseWorkflow, decisionStep, fanInOutput, parallelWith, toolStep, withSteps } from "./lwir-fixtures";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const URI = { json: "file:///w/nav.lwir.json", yaml: "file:///w/nav.lwir.yaml" };

// ---- fixtures with markers -------------------------------------------------------------------------------

interface Fixture {
  format: Format;
  text: string;
  analysis: Analysis;
  /** Offsets of the markers, by name. */
  at: Record<string, number>;
  pos(name: string, delta?: number): Position;
  /** The text of a range. */
  slice(range: { start: Position; end: Position }): string;
}

/** Removes `«name»` markers, recording where each stood. */
function fixture(marked: string, format: Format): Fixture {
  const at: Record<string, number> = {};
  let text = "";
  let last = 0;
  for (const m of marked.matchAll(/«([A-Za-z0-9_]+)»/g)) {
    text += marked.slice(last, m.index);
    assert.ok(!(m[1] in at), `marker ${m[1]} appears once`);
    at[m[1]] = text.length;
    last = m.index! + m[0].length;
  }
  text += marked.slice(last);
  const analysis = analyzeText(text, format);
  assert.deepEqual(analysis.document.parseErrors, [], `the ${format} fixture parses`);
  const doc = analysis.document;
  return {
    format, text, analysis, at,
    pos: (name, delta = 0) => {
      assert.ok(name in at, `marker ${name}`);
      return doc.positionAt(at[name] + delta);
    },
    slice: (range) => text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end)),
  };
}

function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc);
}

/** Position of the n-th occurrence of `needle` (plus `delta`). */
function find(f: Fixture, needle: string, delta = 0, nth = 0): Position {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = f.text.indexOf(needle, i + 1);
    assert.ok(i >= 0, `${JSON.stringify(needle)} #${nth} in the ${f.format} fixture`);
  }
  return f.analysis.document.positionAt(i + delta);
}

/** The key `name` as written in the format (`"name"` or `name:`), cursor inside it. */
function keyPos(f: Fixture, name: string, nth = 0): Position {
  return f.format === "json" ? find(f, `"${name}"`, 2, nth) : find(f, `${name}:`, 1, nth);
}

/**
 * The main fixture: a top-level tool step `load`; a parallel step `fan` (needs load) whose body has
 * `work` (reads the external `load`) and `check`; a second parallel `fan2` whose body also has a
 * `work`, read there with the bracket form; a decision `route` targeting `write`, which reads both fan-ins.
 */
function mainWorkflow(): Json {
  const doc = baseWorkflow();
  doc.input.schema.properties.topic = { type: "string", description: "What to write about" };
  doc.permissions = { models: ["«permModel»model-a", "model-b"], tools: ["«permTool»search"] };
  doc.steps = [
    toolStep("«loadId»load", {
      uses: "«usesValue»tool.call",
      with: { tool: "«tool»search", args: { q: "{{ «inputRoot»input.«topic»topic }}" } },
      output: {
        mode: "«modeValue»object",
        description: "Search hits",
        schema: { type: "object", required: ["hits"], properties: { hits: { type: "array", items: { type: "string" } }, note: { type: "string" } } },
      },
    }),
    {
      id: "fan",
      uses: "parallel",
      needs: ["«fanNeedsLoad»load"],
      with: { ...parallelWith({ failureMode: "«failureValue»all_settled" }), fanIn: { order: "input", output: "array", outputStep: "«outputStep»check" } },
      steps: [
        aiStep("«workId»work", {
          needs: ["«workNeedsLoad»load"],
          with: { model: "«model»model-a", prompt: "Use {{ steps.«extRef»load.«prop»output.«hits»hits }} for {{ item }}" },
        }),
        aiStep("«checkId»check", {
          needs: ["«checkNeedsWork»work"],
          with: { model: "model-b", prompt: "Check {{ «fn»upper(steps.«workRef»work.output) }}" },
        }),
      ],
      output: fanInOutput(),
    },
    {
      id: "fan2",
      uses: "parallel",
      with: parallelWith(),
      steps: [
        aiStep("«work2Id»work", { with: { model: "model-a", prompt: "Handle {{ item }}" } }),
        aiStep("after", { needs: ["«afterNeedsWork»work"], with: { model: "model-a", prompt: "After {{ steps[\"«work2Bracket»work\"].output }}" } }),
      ],
      output: fanInOutput(),
    },
    decisionStep("route", { cases: [{ when: "{{ steps.«whenRef»load.output.note == \"x\" }}", to: "«caseTarget»write" }], default: "«endTarget»end" }, { needs: ["load"] }),
    aiStep("«writeId»write", {
      needs: ["fan", "fan2"],
      with: { model: "model-a", prompt: "Merge {{ steps.fan.output }} and {{ steps[\"fan2\"].output }} «ghost»{{ steps.ghost.output }}" },
    }),
  ];
  return doc;
}

function main(format: Format): Fixture {
  return fixture(render(mainWorkflow(), format), format);
}

// ---- helpers --------------------------------------------------------------------------------------------

function hoverText(f: Fixture, position: Position): string {
  const h: Hover | null = provideHover(f.analysis, position);
  assert.ok(h, `a hover at ${JSON.stringify(position)}`);
  const c = h.contents as { kind: string; value: string };
  assert.equal(c.kind, "markdown");
  return c.value;
}

function definition(f: Fixture, position: Position): Location[] | null {
  return provideDefinition(f.analysis, position, URI[f.format]);
}

/** The text each location covers. */
function texts(f: Fixture, locations: Location[] | null): string[] {
  return (locations ?? []).map((l) => f.slice(l.range));
}

function offsets(f: Fixture, locations: Location[] | null): number[] {
  return (locations ?? []).map((l) => f.analysis.document.offsetAt(l.range.start));
}

function applyEdit(f: Fixture, edit: WorkspaceEdit): string {
  const edits: TextEdit[] = edit.changes?.[URI[f.format]] ?? [];
  const doc = f.analysis.document;
  const sorted = edits.map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  let out = f.text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function rename(f: Fixture, position: Position, newName: string): { text: string; edits: TextEdit[]; analysis: Analysis } {
  const r = provideRename(f.analysis, position, newName, URI[f.format]);
  assert.ok("edit" in r, "refused" in r ? r.refused : "");
  const text = applyEdit(f, r.edit);
  return { text, edits: r.edit.changes![URI[f.format]], analysis: analyzeText(text, f.format) };
}

function refused(f: Fixture, position: Position, newName: string): string {
  const r = provideRename(f.analysis, position, newName, URI[f.format]);
  assert.ok("refused" in r, `the rename to ${JSON.stringify(newName)} is refused`);
  return r.refused;
}

const findingKeys = (a: Analysis) => a.findings.map((f) => `${f.code} ${f.path}`).sort();

// ---- hover ------------------------------------------------------------------------------------------------

for (const format of FORMATS) {
  describe(`hover (${format})`, () => {
    const f = main(format);

    test("a step id anywhere shows the step: type, tool, output and schema, maxVisits, scope", () => {
      for (const marker of ["loadId", "fanNeedsLoad", "workNeedsLoad", "extRef", "whenRef"]) {
        const text = hoverText(f, f.pos(marker, 1));
        assert.match(text, /\*\*step `load`\*\* · `tool\.call`/, marker);
        assert.match(text, /tool: `search`/);
        assert.match(text, /output: `object` — `\{ hits: string\[\], note\?: string \}`/);
        assert.match(text, /maxVisits: 1 \(default/);
        assert.match(text, /scope: top level/);
        assert.match(text, /Search hits/);
      }
      assert.match(hoverText(f, f.pos("extRef")), /External step: this body reads it because the parallel step `fan` needs it/);
      assert.match(hoverText(f, f.pos("extRef")), /\*expression reference\*/);
      assert.match(hoverText(f, f.pos("fanNeedsLoad")), /\*needs entry\*/);
    });

    test("the hover range is the id itself", () => {
      const h = provideHover(f.analysis, f.pos("extRef", 2))!;
      assert.equal(f.slice(h.range!), "load");
      const decl = provideHover(f.analysis, f.pos("workId"))!;
      assert.equal(f.slice(decl.range!), "work");
    });

    test("decision targets, fanIn.outputStep and body steps", () => {
      const target = hoverText(f, f.pos("caseTarget"));
      assert.match(target, /\*\*step `write`\*\* · `ai\.generate`/);
      assert.match(target, /model: `model-a`/);
      assert.match(target, /needs: `fan`, `fan2`/);
      assert.match(target, /\*decision case target\*/);
      const out = hoverText(f, f.pos("outputStep", 2));
      assert.match(out, /\*\*step `check`\*\*/);
      assert.match(out, /scope: body of parallel step `fan`/);
      assert.match(out, /\*fanIn\.outputStep\*/);
      // the same id in the other body is the other step
      assert.match(hoverText(f, f.pos("work2Bracket")), /model: `model-a`/);
      assert.match(hoverText(f, f.pos("work2Bracket")), /scope: body of parallel step `fan2`/);
      assert.match(hoverText(f, f.pos("checkNeedsWork")), /scope: body of parallel step `fan`/);
    });

    test("an id that names no step: the problem's fix once, not the problem again (its message says it)", () => {
      const text = hoverText(f, find(f, "ghost", 1));
      assert.match(text, /^\*\*`step\.missing_dependency`\*\*\n\n\*How to fix:\*/);
      assert.doesNotMatch(text, /no step with this id|---/);
    });

    test("a decision's own card lists its targets and no output", () => {
      const text = hoverText(f, find(f, format === "json" ? '"route"' : "id: route", format === "json" ? 2 : 5));
      assert.match(text, /\*\*step `route`\*\* · `decision`/);
      assert.match(text, /routes to: `write`, `end \(default\)`/);
      assert.match(text, /output: none/);
    });

    test("expression functions, roots, step properties and schema properties", () => {
      const fn = hoverText(f, f.pos("fn", 2));
      assert.match(fn, /upper\(value\)/);
      assert.match(fn, /toUpperCase/);
      assert.match(fn, /function · 1 argument/);
      assert.match(hoverText(f, f.pos("inputRoot", 1)), /\*\*`input`\*\* · expression root\n\nThe workflow input\./);
      const prop = hoverText(f, f.pos("prop", 1));
      assert.match(prop, /\*\*`output`\*\* · step property/);
      assert.match(prop, /single-visit/);
      assert.match(prop, /Shape: `\{ hits: string\[\], note\?: string \}`/);
      const hits = hoverText(f, f.pos("hits", 1));
      assert.match(hits, /\*\*`hits`\*\*: `string\[\]`/);
      assert.match(hits, /in the load output/);
      const topic = hoverText(f, f.pos("topic", 1));
      assert.match(topic, /\*\*`topic`\*\*: `string`/);
      assert.match(topic, /What to write about/);
    });

    test("keyword values and keys", () => {
      assert.ok(hoverText(f, f.pos("usesValue", 1)).includes(STEP_TYPE_DOCS["tool.call"]));
      assert.ok(hoverText(f, f.pos("modeValue", 1)).includes(OUTPUT_MODE_DOCS.object));
      assert.ok(hoverText(f, f.pos("failureValue", 1)).includes(FAILURE_MODE_DOCS.all_settled));
      assert.match(hoverText(f, f.pos("endTarget", 1)), /`end` finishes the current scope/);
      assert.match(hoverText(f, keyPos(f, "failureMode")), /\*\*`failureMode`\*\*\n\n`fail_fast` or `all_settled`/);
      assert.match(hoverText(f, keyPos(f, "uses")), /\*\*`uses`\*\*\n\nThe step type/);
      assert.match(hoverText(f, keyPos(f, "needs")), /must finish first/);
      assert.match(hoverText(f, keyPos(f, "outputStep")), /lastOutput/);
      assert.match(hoverText(f, keyPos(f, "apiVersion")), /littleworkflow\.dev\/v0\.1/);
      assert.match(hoverText(f, keyPos(f, "models")), /Model slot ids/);
      const withKey = hoverText(f, keyPos(f, "with"));
      assert.match(withKey, /`model` and `prompt` \(ai\.generate\)/);
      assert.doesNotMatch(withKey, /catalog/i);
    });

    test("models and tools: where they are allowed and which steps use them", () => {
      for (const marker of ["model", "permModel"]) {
        const text = hoverText(f, f.pos(marker, 1));
        assert.match(text, /\*\*model `model-a`\*\*/);
        assert.match(text, /Allowed: listed in `permissions\.models`/);
        assert.match(text, /Used by `work`, `work`, `after`, `write`\./);
      }
      const tool = hoverText(f, f.pos("tool", 1));
      assert.match(tool, /\*\*tool `search`\*\*/);
      assert.match(tool, /Used by `load`\./);
      assert.match(hoverText(f, f.pos("permTool")), /\*\*tool `search`\*\*/);
    });

    test("a finding's range: how to fix it and the rule's page", () => {
      const doc = baseWorkflow();
      doc.steps[1].with.model = "«bad»gpt-x";
      delete doc.steps[1].needs;
      const g = fixture(render(doc, format), format);
      let text = hoverText(g, g.pos("bad", 1));
      // the message above the hover says what is wrong; the hover does not say it again
      assert.match(text, /\*\*`model\.disallowed`\*\*\n\n\*How to fix:\*/);
      assert.doesNotMatch(text, /The model is not listed in permissions\.models/);
      assert.match(text, /\*How to fix:\* Add the model to `permissions\.models`/);
      // the rule's page, not a document users do not have (the base the Node server sets: docs/rules beside it)
      setRuleDocsBase(expectedRuleDocsBase());
      const linked = hoverText(g, g.pos("bad", 1));
      setRuleDocsBase(undefined);
      assert.ok(!text.includes("model.disallowed.md"), "a link with no page base");
      text = linked;
      assert.ok(text.includes(`](${expectedRuleDocsBase()}model.disallowed.md)`), text);
      assert.doesNotMatch(text, /catalog/i);
      assert.match(text, /\*\*model `gpt-x`\*\*/);
      assert.match(text, /Not listed in `permissions\.models`/);
      // the problem's explanation and its rule link first, together; what the word is after a separator
      const [problem, ...rest] = text.split("\n\n---\n\n");
      assert.match(problem, /^\*\*`model\.disallowed`\*\*[^]*\*How to fix:\*[^]*model\.disallowed\.md\)$/);
      assert.equal(rest.length, 1);
      assert.match(rest[0], /^\*\*model `gpt-x`\*\*/);
      // on a step reference with an undeclared dependency: the step and the finding
      const ref = hoverText(g, find(g, "steps.gather", 7));
      assert.match(ref, /\*\*step `gather`\*\*/);
      assert.match(ref, /---/);
      assert.match(ref, /`step\.undeclared_dependency`/);
      assert.ok(ref.indexOf("step.undeclared_dependency") < ref.indexOf("**step `gather`**"), ref);
      assert.match(ref, /List the step in this step's `needs`/);
    });

    test("nothing to say: null", () => {
      assert.equal(provideHover(f.analysis, find(f, "fixture-workflow", 3)), null);
    });
  });
}

// ---- definition and references -------------------------------------------------------------------------------

for (const format of FORMATS) {
  describe(`definition and references (${format})`, () => {
    const f = main(format);

    test("every reference kind leads to the step's id", () => {
      const cases: Array<[string, string]> = [
        ["fanNeedsLoad", "loadId"], ["workNeedsLoad", "loadId"], ["extRef", "loadId"], ["whenRef", "loadId"],
        ["outputStep", "checkId"], ["caseTarget", "writeId"], ["checkNeedsWork", "workId"], ["workRef", "workId"],
        ["afterNeedsWork", "work2Id"], ["work2Bracket", "work2Id"], ["loadId", "loadId"],
      ];
      for (const [from, to] of cases) {
        const locations = definition(f, f.pos(from, 1));
        assert.deepEqual(offsets(f, locations), [f.at[to]], `${from} → ${to}`);
        assert.equal(locations![0].uri, URI[format]);
      }
      assert.deepEqual(texts(f, definition(f, f.pos("extRef"))), ["load"]);
    });

    test("models and tools lead to their permissions entry", () => {
      assert.deepEqual(offsets(f, definition(f, f.pos("model", 2))), [f.at.permModel]);
      assert.deepEqual(texts(f, definition(f, f.pos("model", 2))), ["model-a"]);
      assert.deepEqual(offsets(f, definition(f, f.pos("tool"))), [f.at.permTool]);
    });

    test("no definition: an unknown id, `end`, plain text", () => {
      assert.equal(definition(f, find(f, "ghost", 2)), null);
      assert.equal(definition(f, f.pos("endTarget", 1)), null);
      assert.equal(definition(f, find(f, "Search hits", 2)), null);
    });

    test("references of a top-level step, with and without the declaration", () => {
      const all = provideReferences(f.analysis, f.pos("extRef", 1), URI[format], true);
      const expected = [f.at.loadId, f.at.fanNeedsLoad, f.at.workNeedsLoad, f.at.extRef, f.at.whenRef];
      // `route` needs load too (no marker): one more
      assert.equal(all!.length, expected.length + 1);
      for (const o of expected) assert.ok(offsets(f, all).includes(o), `includes ${o}`);
      assert.ok(texts(f, all).every((t) => t === "load"));
      const noDecl = provideReferences(f.analysis, f.pos("loadId"), URI[format], false);
      assert.equal(noDecl!.length, expected.length);
      assert.ok(!offsets(f, noDecl).includes(f.at.loadId));
    });

    test("scopes: the same id in two bodies names two steps", () => {
      const first = offsets(f, provideReferences(f.analysis, f.pos("workId"), URI[format], true));
      assert.deepEqual(first, [f.at.workId, f.at.checkNeedsWork, f.at.workRef].sort((a, b) => a - b));
      const second = offsets(f, provideReferences(f.analysis, f.pos("work2Bracket"), URI[format], true));
      assert.deepEqual(second, [f.at.work2Id, f.at.afterNeedsWork, f.at.work2Bracket].sort((a, b) => a - b));
    });

    test("references of a model and a tool", () => {
      const model = provideReferences(f.analysis, f.pos("permModel"), URI[format], true)!;
      assert.equal(model.length, 5); // the entry and four uses
      assert.ok(texts(f, model).every((t) => t === "model-a"));
      assert.equal(provideReferences(f.analysis, f.pos("model"), URI[format], false)!.length, 4);
      assert.deepEqual(offsets(f, provideReferences(f.analysis, f.pos("tool"), URI[format], true)), [f.at.permTool, f.at.tool]);
    });

    test("an unknown id: its other mentions in the same scope", () => {
      const refs = provideReferences(f.analysis, find(f, "ghost", 1), URI[format], true);
      assert.deepEqual(texts(f, refs), ["ghost"]);
    });
  });
}

// ---- rename ------------------------------------------------------------------------------------------------

for (const format of FORMATS) {
  describe(`rename (${format})`, () => {
    const f = main(format);

    test("prepareRename: the id under the cursor, from every reference kind", () => {
      for (const marker of ["loadId", "fanNeedsLoad", "extRef", "whenRef", "outputStep", "caseTarget", "work2Bracket"]) {
        const r = providePrepareRename(f.analysis, f.pos(marker, 1));
        assert.ok("range" in r, marker);
        assert.equal(f.slice(r.range), r.placeholder);
        assert.equal(f.analysis.document.offsetAt(r.range.start), f.at[marker]);
      }
    });

    test("a top-level step read from a body: every occurrence, findings unchanged, a new WorkflowVersion", () => {
      assert.ok(f.analysis.findings.length > 0); // the ghost reference
      const r = rename(f, f.pos("extRef", 1), "source");
      assert.equal(r.edits.length, 6);
      assert.ok(r.edits.every((e) => e.newText === "source"));
      assert.deepEqual(findingKeys(r.analysis), findingKeys(f.analysis));
      const doc = r.analysis.document.value as Json;
      assert.equal(doc.steps[0].id, "source");
      assert.deepEqual(doc.steps[1].needs, ["source"]);
      assert.deepEqual(doc.steps[1].steps[0].needs, ["source"]);
      assert.match(doc.steps[1].steps[0].with.prompt, /^Use \{\{ steps\.source\.output\.hits \}\}/);
      assert.deepEqual(doc.steps[3].needs, ["source"]);
      assert.match(doc.steps[3].with.cases[0].when, /steps\.source\.output\.note/);
    });

    test("a body step: only its own body changes", () => {
      const r = rename(f, f.pos("checkNeedsWork", 1), "worker");
      assert.equal(r.edits.length, 3);
      const doc = r.analysis.document.value as Json;
      assert.equal(doc.steps[1].steps[0].id, "worker");
      assert.deepEqual(doc.steps[1].steps[1].needs, ["worker"]);
      assert.match(doc.steps[1].steps[1].with.prompt, /steps\.worker\.output/);
      assert.equal(doc.steps[2].steps[0].id, "work");
      assert.deepEqual(doc.steps[2].steps[1].needs, ["work"]);
      assert.deepEqual(findingKeys(r.analysis), findingKeys(f.analysis));
    });

    test("decision targets and fanIn.outputStep are renamed", () => {
      const r = rename(f, f.pos("writeId"), "final");
      assert.equal((r.analysis.document.value as Json).steps[3].with.cases[0].to, "final");
      const s = rename(f, f.pos("outputStep", 1), "review");
      const doc = s.analysis.document.value as Json;
      assert.equal(doc.steps[1].with.fanIn.outputStep, "review");
      assert.equal(doc.steps[1].steps[1].id, "review");
      assert.deepEqual(findingKeys(s.analysis), findingKeys(f.analysis));
    });

    test("a decision's default target and its cases", () => {
      const doc = withSteps([
        toolStep("a"),
        decisionStep("route", { cases: [{ when: "{{ steps.a.output }}", to: "«toB»b" }], default: "«toC»c" }, { needs: ["a"] }),
        aiStep("b"),
        aiStep("«cId»c"),
      ]);
      const g = fixture(render(doc, format), format);
      assert.deepEqual(g.analysis.findings, []);
      assert.deepEqual(offsets(g, definition(g, g.pos("toC", 1))), [g.at.cId]);
      assert.match(hoverText(g, g.pos("toC")), /\*decision default target\*/);
      const r = rename(g, g.pos("toC"), "fallback");
      assert.equal(r.edits.length, 2);
      const value = r.analysis.document.value as Json;
      assert.equal(value.steps[1].with.default, "fallback");
      assert.equal(value.steps[3].id, "fallback");
      assert.deepEqual(r.analysis.findings, []);
      assert.notEqual(r.analysis.workflowVersion!.id, g.analysis.workflowVersion!.id);
      assert.match(refused(g, g.pos("toB"), "end"), /"end" as a decision target means/);
    });

    test("the bracket form keeps its quotes; a new id that is not a segment turns dots into brackets", () => {
      const r = rename(f, f.pos("work2Id"), "second");
      assert.match((r.analysis.document.value as Json).steps[2].steps[1].with.prompt, /steps\["second"\]\.output/);
      const s = rename(f, f.pos("loadId"), "load it");
      const doc = s.analysis.document.value as Json;
      assert.match(doc.steps[1].steps[0].with.prompt, /^Use \{\{ steps\["load it"\]\.output\.hits \}\}/);
      assert.match(doc.steps[3].with.cases[0].when, /^\{\{ steps\["load it"\]\.output\.note == "x" \}\}$/);
      assert.deepEqual(findingKeys(s.analysis), findingKeys(f.analysis));
      if (format === "json") assert.ok(s.text.includes('{{ steps[\\"load it\\"].output.hits }}'));
    });

    test("a valid document stays valid, with a new WorkflowVersion", () => {
      const doc = mainWorkflow();
      doc.steps[4].with.prompt = "Merge {{ steps.fan.output }} and {{ steps[\"fan2\"].output }}";
      const g = fixture(render(doc, format), format);
      assert.deepEqual(g.analysis.findings, []);
      const r = rename(g, g.pos("extRef"), "load-2");
      assert.deepEqual(r.analysis.findings, []);
      assert.ok(r.analysis.workflowVersion);
      assert.notEqual(r.analysis.workflowVersion!.id, g.analysis.workflowVersion!.id);
      const back = fixture(r.text, format);
      const again = rename(back, find(back, "load-2", 1), "load");
      assert.equal(again.analysis.workflowVersion!.id, g.analysis.workflowVersion!.id);
    });

    test("findings follow the renamed ids", () => {
      const doc = withSteps([toolStep("a"), aiStep("b", { with: { model: "model-a", prompt: "{{ steps.a.output }} {{ steps.«aRef»a.output }}" } })]);
      const g = fixture(render(doc, format), format);
      assert.deepEqual(findingKeys(g.analysis), ["step.undeclared_dependency $.steps[1].with.prompt", "step.undeclared_dependency $.steps[1].with.prompt", "terminal.ambiguous $.steps"]);
      const r = rename(g, g.pos("aRef"), "alpha");
      assert.equal(r.edits.length, 3);
      assert.deepEqual(findingKeys(r.analysis), findingKeys(g.analysis));
      const messages = (a: Analysis) => a.findings.map((x) => x.message).sort();
      assert.deepEqual(messages(r.analysis), messages(g.analysis).map((m) => m.replace(/\ba\b/g, "alpha")));
    });

    test("the same new id as the old: no edits", () => {
      const r = provideRename(f.analysis, f.pos("loadId"), "load", URI[format]);
      assert.ok("edit" in r);
      assert.deepEqual(r.edit.changes![URI[format]], []);
    });

    test("refusals", () => {
      assert.match(refused(f, f.pos("loadId"), "a.b"), /must not contain "\.", "\[" or "\]"/);
      assert.match(refused(f, f.pos("loadId"), "x@attempt_1"), /@attempt_/);
      assert.match(refused(f, f.pos("loadId"), ""), /must not be empty/);
      assert.match(refused(f, f.pos("loadId"), "fan"), /A step "fan" already exists in this list/);
      assert.match(refused(f, f.pos("workId"), "check"), /A step "check" already exists in this list/);
      // a body step may not take the id of the external step it could read
      assert.match(refused(f, f.pos("workId"), "load"), /reads from outside it/);
      // the top-level step may not take an id a reading body already uses
      assert.match(refused(f, f.pos("loadId"), "check"), /The body of "fan" reads "load" and has its own step "check"/);
      assert.match(refused(f, f.pos("writeId"), "end"), /"end" as a decision target means/);
      assert.match(refused(f, f.pos("loadId"), "a}b"), /cannot hold "\{" or "\}"/);
      // the expression language refuses reserved words, even inside a quoted id
      assert.match(refused(f, f.pos("loadId"), "new id"), /would add a problem: expression\.invalid .*reserved word "new"/);
      // a rename that makes a dangling reference resolve adds a problem
      assert.match(refused(f, f.pos("loadId"), "ghost"), /would add a problem: step\.undeclared_dependency/);
    });

    test("prepareRename refusals", () => {
      const msg = (p: Position) => {
        const r = providePrepareRename(f.analysis, p);
        assert.ok("refused" in r);
        return r.refused;
      };
      assert.match(msg(keyPos(f, "uses")), /Only step ids can be renamed/);
      assert.match(msg(f.pos("model", 1)), /the model "model-a" is not a step id/);
      assert.match(msg(find(f, "ghost", 1)), /No step "ghost" is in scope here/);
      assert.match(msg(f.pos("endTarget", 1)), /"end" is not a step/);
      const dup = withSteps([toolStep("a"), toolStep("«dup»a"), aiStep("b", { needs: ["«need»a"] })]);
      const g = fixture(render(dup, format), format);
      const d1 = providePrepareRename(g.analysis, g.pos("dup"));
      assert.ok("refused" in d1 && /already has the id "a" \(step\.duplicate_id\)/.test(d1.refused));
      const d2 = providePrepareRename(g.analysis, g.pos("need"));
      assert.ok("refused" in d2 && /Several steps in this list have the id "a"/.test(d2.refused));
      const broken = analyzeText(format === "json" ? '{"steps": [{"id": "a"' : "steps:\n  - id: a\n   bad: [", format);
      const b = providePrepareRename(broken, { line: 0, character: 14 });
      assert.ok("refused" in b && /does not parse/.test(b.refused));
    });
  });
}

// ---- scalar styles and escapes ----------------------------------------------------------------------------------

describe("strings as written: offsets through escapes and YAML scalar styles", () => {
  test("JSON: escapes before the reference and in the id itself", () => {
    const text = [
      "{",
      '  "apiVersion": "littleworkflow.dev/v0.1", "kind": "Workflow", "metadata": {"name": "x"},',
      '  "input": {"schema": true}, "output": {"schema": true}, "permissions": {"models": ["m"], "tools": ["t"]},',
      '  "steps": [',
      '    {"id": "lo\\u0061d", "uses": "tool.call", "with": {"tool": "t"}, "output": {"mode": "text"}},',
      '    {"id": "b", "uses": "ai.generate", "needs": ["load"], "with": {"model": "m", "prompt": "\\u00e9\\"\\n {{ steps.load.output }} {{ steps[\\"load\\"].output }}"}, "output": {"mode": "text"}}',
      "  ]",
      "}",
    ].join("\n");
    const f = fixture(text, "json");
    assert.deepEqual(f.analysis.findings, []);
    const refs = provideReferences(f.analysis, find(f, "steps.load", 7), URI.json, true)!;
    assert.deepEqual(texts(f, refs), ["lo\\u0061d", "load", "load", "load"]);
    const r = rename(f, find(f, "steps.load", 7), "next id");
    assert.deepEqual(r.analysis.findings, []);
    const doc = r.analysis.document.value as Json;
    assert.equal(doc.steps[0].id, "next id");
    assert.equal(doc.steps[1].with.prompt, 'é"\n {{ steps["next id"].output }} {{ steps["next id"].output }}');
    assert.ok(r.text.includes('{{ steps[\\"next id\\"].output }} {{ steps[\\"next id\\"].output }}'));
  });

  const yaml = [
    "apiVersion: littleworkflow.dev/v0.1",
    "kind: Workflow",
    "metadata: {name: x}",
    "input: {schema: true}",
    "output: {schema: true}",
    "permissions: {models: [m], tools: [t]}",
    "steps:",
    "  - id: 'load'",
    "    uses: tool.call",
    "    with: {tool: t}",
    "    output: {mode: text}",
    "  - id: b",
    "    uses: ai.generate",
    "    needs: [load, \"c\"]",
    "    with:",
    "      model: m",
    "      system: >-",
    "        Folded text that reads",
    "        {{ steps.load.output }} here",
    "      prompt: |",
    "        Literal {{ steps.c.output }}",
    "          and {{ steps['load'].output }}",
    "    input:",
    "      plain: read {{ steps.load.output }} now",
    "      dq: \"two\\tlines {{ steps.load.output }}",
    "        folded\"",
    "      sq: 'it''s {{ steps.load.output }}'",
    "    output: {mode: text}",
    "  - id: c",
    "    uses: tool.call",
    "    with: {tool: t}",
    "    output: {mode: text}",
    "  - id: d",
    "    uses: ai.generate",
    "    needs:",
    "      - b",
    "    with: {model: m, prompt: \"{{ steps.b.output }}\"}",
    "    output: {mode: text}",
    "",
  ].join("\n");

  test("YAML: every scalar style maps back to the text", () => {
    const f = fixture(yaml, "yaml");
    assert.deepEqual(findingKeys(f.analysis), []);
    const index = navigationIndex(f.analysis)!;
    const load = index.steps.filter((o) => o.id === "load");
    assert.equal(load.length, 7);
    for (const o of load) assert.equal(f.text.slice(o.start, o.end), "load", JSON.stringify(o.segments));
    for (const path of [["steps", 1, "with", "system"], ["steps", 1, "with", "prompt"], ["steps", 1, "input", "dq"], ["steps", 1, "input", "sq"], ["steps", 1, "needs", 1]]) {
      assert.ok(stringAt(f.analysis.document, path), JSON.stringify(path));
    }
  });

  test("YAML: a rename keeps each style; a plain id that needs quotes gets them", () => {
    const f = fixture(yaml, "yaml");
    const r = rename(f, find(f, "'load'", 1), "next: id");
    assert.deepEqual(findingKeys(r.analysis), []);
    const doc = r.analysis.document.value as Json;
    assert.equal(doc.steps[0].id, "next: id");
    assert.deepEqual(doc.steps[1].needs, ["next: id", "c"]);
    assert.equal(doc.steps[1].with.system, 'Folded text that reads {{ steps["next: id"].output }} here');
    assert.equal(doc.steps[1].with.prompt, "Literal {{ steps.c.output }}\n  and {{ steps['next: id'].output }}\n");
    assert.equal(doc.steps[1].input.dq, 'two\tlines {{ steps["next: id"].output }} folded');
    assert.equal(doc.steps[1].input.sq, 'it\'s {{ steps["next: id"].output }}');
    assert.ok(r.text.includes("  - id: 'next: id'\n"), r.text);
    assert.ok(r.text.includes('    needs: ["next: id", "c"]\n'), r.text);
    // the plain scalar with `: ` inside would no longer be plain: it is rewritten quoted
    assert.equal(doc.steps[1].input.plain, 'read {{ steps["next: id"].output }} now');
    assert.ok(/plain: ".*next: id.*"\n/.test(r.text) || /plain: '.*next: id.*'\n/.test(r.text), r.text);
    // lines that hold no occurrence are untouched
    const before = f.text.split("\n");
    const after = r.text.split("\n");
    assert.equal(after.length, before.length);
    const changed = before.map((l, i) => (l === after[i] ? -1 : i)).filter((i) => i >= 0);
    assert.deepEqual(changed.map((i) => before[i].trim().slice(0, 12)), ["- id: 'load'", "needs: [load", "{{ steps.loa", "and {{ steps", "plain: read ", "dq: \"two\\tli", "sq: 'it''s {"]);
  });

  test("YAML: block sequence needs and a plain id", () => {
    const f = fixture(yaml, "yaml");
    const r = rename(f, find(f, "- b", 2), "bee");
    assert.deepEqual(findingKeys(r.analysis), []);
    assert.ok(r.text.includes("  - id: bee\n"));
    assert.ok(r.text.includes("      - bee\n"));
    assert.ok(r.text.includes('prompt: "{{ steps.bee.output }}"'));
    const s = rename(f, find(f, "- b", 2), "true");
    assert.ok(s.text.includes('  - id: "true"\n'), s.text);
    assert.equal((s.analysis.document.value as Json).steps[1].id, "true");
  });

  test("YAML: a reference through an alias cannot be renamed in place", () => {
    const text = yaml.replace("metadata: {name: x}", "metadata: {name: x}\nx-prompt: &p \"{{ steps.load.output }}\"").replace("      model: m\n", "      model: m\n      extra: *p\n");
    const f = fixture(text, "yaml");
    const r = provideRename(f.analysis, find(f, "'load'", 1), "other", URI.yaml);
    assert.ok("refused" in r && /cannot be edited in place/.test(r.refused), JSON.stringify(r));
  });
});
