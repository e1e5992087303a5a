// bench/generate.mjs, the workflow generator the benchmark and many tests rely on: what it promises must
// hold, or those tests and figures would measure the wrong thing. Valid documents have no findings (JSON
// and YAML, several seeds and sizes, both id styles), the two renderings are the same value, output is
// deterministic, and an injected error produces exactly the finding the generator lists for it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import YAML from "yaml";
import { validateLwir } from "../../server/src/lwir/validate";
import { parseFastYamlDocument } from "../../server/src/document/yaml-fast";
import { GENERATOR, generateWorkflow } from "../corpus";

const findings = (doc: unknown) => validateLwir(doc).findings.map((f) => `${f.path} ${f.code}`).sort();

describe("generated workflows", () => {
  test("valid documents have no findings, in JSON and in YAML, and both read as the same value", () => {
    const kinds = new Set<string>();
    for (const [steps, seed, idStyle] of [[1, "1", "kebab"], [2, "9", "kebab"], [7, "2", "snake"], [40, "3", "kebab"], [120, "4", "snake"], [300, "5", "kebab"]] as const) {
      const json = JSON.parse(generateWorkflow({ steps, seed, idStyle }).text) as { steps: Array<{ uses: string; steps?: unknown[] }> };
      const yaml = generateWorkflow({ steps, seed, idStyle, format: "yaml" }).text;
      assert.deepEqual(findings(json), [], `${steps} steps, seed ${seed}`);
      assert.deepEqual(YAML.parse(yaml), json, `${steps} steps, seed ${seed}: the YAML rendering is the same value`);
      assert.ok(parseFastYamlDocument(yaml), `${steps} steps, seed ${seed}: the YAML stays in the plain subset the fast reader takes`);
      const count = json.steps.reduce((n, s) => n + 1 + (s.steps?.length ?? 0), 0);
      assert.equal(count, steps, "--steps counts every step object, parallel bodies included");
      for (const s of json.steps) kinds.add(s.uses);
    }
    for (const uses of ["ai.generate", "tool.call", "code.run", "decision", "parallel"]) assert.ok(kinds.has(uses), `no ${uses} step generated`);
  });

  test("the same options give the same bytes; another seed gives another document", () => {
    const a = generateWorkflow({ steps: 50, seed: "x", format: "yaml" }).text;
    assert.equal(generateWorkflow({ steps: 50, seed: "x", format: "yaml" }).text, a);
    assert.notEqual(generateWorkflow({ steps: 50, seed: "y", format: "yaml" }).text, a);
  });

  test("injected errors give exactly the findings listed for them, one each, every kind used", () => {
    const kinds = new Set<string>();
    for (const [steps, seed, errors] of [[30, "1", 1], [32, "21", 6], [40, "3", 9], [60, "4", 12], [90, "6", 18], [200, "7", 27]] as const) {
      for (const format of ["json", "yaml"] as const) {
        const { text, injected } = generateWorkflow({ steps, seed, errors, format });
        assert.equal(injected.length, errors, `${steps}/${seed}: one entry per error`);
        const doc: unknown = format === "json" ? JSON.parse(text) : YAML.parse(text);
        assert.deepEqual(findings(doc), injected.map((e) => `${e.path} ${e.expectedCode}`).sort(), `${steps} steps, seed ${seed}, ${errors} errors (${format})`);
        for (const e of injected) kinds.add(e.kind);
      }
    }
    assert.equal(kinds.size, 9, [...kinds].join(", "));
  });

  test("kinds are used round-robin from missing_needs, and bad input is refused with a message", () => {
    const { injected } = generateWorkflow({ steps: 80, seed: "2", errors: 3 });
    assert.deepEqual(injected.map((e) => e.kind), ["missing_needs", "unknown_step_ref", "bad_max_visits"]);
    for (const args of [["--steps", "0"], ["--format", "xml"], ["--errors", "-1"], ["--bogus", "1"], ["--steps"]]) {
      const r = spawnSync(process.execPath, [GENERATOR, ...args], { encoding: "utf8" });
      assert.equal(r.status, 2, args.join(" "));
      assert.match(r.stderr, /--|argument/);
    }
    const tooMany = spawnSync(process.execPath, [GENERATOR, "--steps", "3", "--errors", "40"], { encoding: "utf8" });
    assert.equal(tooMany.status, 1);
    assert.match(tooMany.stderr, /too small/);
  });
});
