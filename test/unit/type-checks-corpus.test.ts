// No noise: the type checks (service/typeChecks.ts) over every valid document of the corpora. Each
// warning they give there is a real mistake in that document, listed with the reason; the list is
// pinned, so a looser rule (or a lost one) fails here before it reaches users.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { findTypeNotices } from "../../server/src/service/typeChecks";

/** `file code path word` of each notice, for the valid documents of a folder. */
function noticesOf(dir: string): string[] {
  const out: string[] = [];
  for (const c of corpusCases(dir)) {
    if (!c.label.valid) continue;
    const text = readFileSync(c.file, "utf8");
    const analysis = analyzeText(text, c.format);
    assert.equal(analysis.valid, true, c.name);
    for (const n of findTypeNotices(analysis)) {
      const value = n.segments.reduce<unknown>((v, s) => (v as Record<string | number, unknown>)[s], analysis.document.value) as string;
      out.push(`${c.name} ${n.code} ${n.segments.join(".")} ${value.slice(n.start, n.end)}`);
    }
  }
  return out;
}

describe("type checks on the corpora's valid documents: only real mistakes", () => {
  test("conformance: eight reads of input/item properties their schemas do not declare", () => {
    assert.deepEqual(noticesOf(CONFORMANCE), [
      // input declares invoiceId and items only: input.a and input.b are made up
      "valid--comparison-of-function-results.lwir.json lwir.unknown_property steps.0.with.prompt a",
      "valid--comparison-of-function-results.lwir.json lwir.unknown_property steps.0.with.prompt b",
      // input declares releaseTag and items: createdAt and salt are never declared
      "valid--expression-functions.lwir.yaml lwir.unknown_property steps.1.with.system createdAt",
      "valid--expression-functions.lwir.yaml lwir.unknown_property steps.1.with.prompt salt",
      // input declares contractId and items: input.item and input.item_count are not there
      "valid--item-as-property-name-outside-parallel.lwir.yaml lwir.unknown_property steps.0.with.prompt item",
      "valid--item-as-property-name-outside-parallel.lwir.yaml lwir.unknown_property steps.0.with.prompt item_count",
      // the items' element declares id and jurisdiction: the decision reads item.priority
      "valid--parallel-decision-on-item.lwir.yaml lwir.unknown_property steps.0.steps.1.with.cases.0.when priority",
      // input declares only weights: input.transcript is not there
      "valid--schema-record-string-keys.lwir.json lwir.unknown_property steps.0.with.prompt transcript",
    ]);
  });

  test("syntax cases: none", () => {
    assert.deepEqual(noticesOf(SYNTAX), []);
  });

  test("real-world: one mistake, in both spellings of one workflow", () => {
    // input is closed (additionalProperties: false) and declares candidates and jobDescription; the
    // parallel body reads input.candidate.id and input.candidate.summary, meaning item.id / item.summary
    const candidate = (ext: string) => `demo-real-planner-valid-parallel-example.lwir.${ext} lwir.unknown_property steps.0.steps.0.with.prompt candidate`;
    assert.deepEqual(noticesOf(REALWORLD), [candidate("json"), candidate("json"), candidate("yaml"), candidate("yaml")]);
  });
});
