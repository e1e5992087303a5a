// The pages of the lwir.scenario_* rules (docs/rules/): each example, a scenarios file beside the page's
// workflow, gives exactly its page's code, with a quick fix where the page promises one; every scenarios
// file of examples/ gives none.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "../../server/src/document/document";
import { OWN_RULES } from "../../server/src/lwir/codes";
import { workflowNamesFor } from "../../server/src/run/scenarios";
import { checkScenariosFile, type ScenarioFixData } from "../../server/src/scenarios/check";
import { readRulePages } from "../rule-docs";

const SCENARIO_CODES = OWN_RULES.map((r) => r.code).filter((c) => c.startsWith("lwir.scenario_"));
const fence = (text: string, kind: string): string | undefined => new RegExp("^```yaml " + kind + "\\n([\\s\\S]*?)^```$", "m").exec(text)?.[1];

describe("docs/rules: the scenarios files' rules", () => {
  const pages = readRulePages().filter((p) => SCENARIO_CODES.includes(p.code));
  test("one page per code", () => assert.deepEqual(pages.map((p) => p.code).sort(), [...SCENARIO_CODES].sort()));
  for (const page of pages) {
    test(page.code, () => {
      const workflowText = fence(page.text, "lwir-scenario-workflow");
      const exampleText = fence(page.text, "lwir-scenario-example");
      assert.ok(workflowText && exampleText, `${page.file}: a workflow and a scenarios example`);
      const workflow = page.code === "lwir.scenario_no_workflow" ? undefined : { name: "tickets.lwir.yaml", value: parseDocument(workflowText, "yaml").value };
      const diagnostics = checkScenariosFile(parseDocument(exampleText, "yaml"), workflow);
      assert.deepEqual([...new Set(diagnostics.map((d) => d.code))], [page.code], `${page.file}: ${JSON.stringify(diagnostics)}`);
      const fixes = diagnostics.filter((d) => (d.data as ScenarioFixData | undefined)?.replaceWith?.length);
      if (page.quickFix === "no") assert.equal(fixes.length, 0, page.file);
      else assert.ok(fixes.length > 0, `${page.file}: the example shows a case with a quick fix`);
    });
  }
});

describe("examples/: scenarios files beside their workflows", () => {
  test("no diagnostics", () => {
    const files = readdirSync("examples").filter((f) => /\.lwir\.test\.(ya?ml|json)$/.test(f));
    assert.ok(files.length > 0);
    for (const file of files) {
      const workflowName = workflowNamesFor(file).find((n) => readdirSync("examples").includes(n))!;
      const format = workflowName.endsWith(".json") ? "json" : "yaml";
      const workflow = { name: workflowName, value: parseDocument(readFileSync(join("examples", workflowName), "utf8"), format).value };
      const doc = parseDocument(readFileSync(join("examples", file), "utf8"), file.endsWith(".json") ? "json" : "yaml");
      assert.deepEqual(checkScenariosFile(doc, workflow), [], file);
    }
  });
});
