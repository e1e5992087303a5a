// onFailure: fixer and repair (catalog 3.9, 4).
import { describe, test } from "node:test";
import {
  type Json, aiStep, baseWorkflow, codeRunStep, decisionStep, expectFindings, expectValid, parallelStep, toolStep, withSteps,
} from "./lwir-fixtures";

const OF = "$.steps[0].onFailure";
const R = `${OF}.repair`;
const F = `${OF}.fixer`;

/** A one-step workflow whose step gets `onFailure`. */
function one(step: Json, onFailure: unknown): Json {
  step.onFailure = onFailure;
  return withSteps([step]);
}
const goodRepair = () => ({ mode: "self", maxAttempts: 2 });
const goodFixer = () => ({ model: "model-b", maxAttempts: 3, system: "Fix the failing code." });

describe("onFailure itself", () => {
  test("present and not an object: fixer.invalid_config at S.onFailure only", () => {
    for (const v of [null, "retry", [], [{ repair: {} }], 3, false]) {
      expectFindings(one(aiStep("a"), v), [`${OF} fixer.invalid_config`], JSON.stringify(v));
      expectFindings(one(codeRunStep("c"), v), [`${OF} fixer.invalid_config`], `code.run ${JSON.stringify(v)}`);
    }
  });

  test("an empty object, or only unknown keys, is fine on every known type", () => {
    for (const step of [aiStep("a"), toolStep("t"), codeRunStep("c"), parallelStep("p")]) {
      expectValid(one(step, {}), step.uses);
    }
    expectValid(one(aiStep("a"), { retries: 3, onError: "continue" }));
    expectValid(withSteps([toolStep("a"), decisionStep("d", { default: "end" }, { needs: ["a"], onFailure: {} })]));
  });

  test("unknown-type steps are not examined", () => {
    const u = { id: "u", uses: "ai.gen", output: { mode: "text" } };
    expectFindings(one(u, "junk"), ["$.steps[0].uses step.invalid_type"]);
    expectFindings(one({ ...u }, { repair: 1, fixer: { model: 5 } }), ["$.steps[0].uses step.invalid_type"]);
  });
});

describe("repair", () => {
  test("valid self repair on ai.generate", () => {
    expectValid(one(aiStep("a"), { repair: goodRepair() }));
    expectValid(one(aiStep("a"), { repair: { mode: "self", maxAttempts: 1, extra: true } }));
    expectValid(one(aiStep("a"), { repair: { mode: "self", maxAttempts: 100000 } }));
  });

  test("repair.invalid_config: present and not an object; other repair checks skipped", () => {
    for (const v of [null, "self", [], [{ mode: "self" }], 2, true]) {
      expectFindings(one(aiStep("a"), { repair: v }), [`${R} repair.invalid_config`], JSON.stringify(v));
    }
    // On a step that may not repair, the shape problem is still the only repair finding.
    expectFindings(one(toolStep("t"), { repair: "self" }), [`${R} repair.invalid_config`]);
  });

  test("an empty repair object on ai.generate: mode and maxAttempts", () => {
    expectFindings(one(aiStep("a"), { repair: {} }), [`${R}.mode repair.invalid_mode`, `${R}.maxAttempts repair.invalid_max_attempts`]);
  });

  test("repair.unsupported_step on every other known type, and the checks continue", () => {
    const steps: Array<[string, Json]> = [
      ["tool.call", toolStep("s")],
      ["code.run", codeRunStep("s")],
      ["parallel", parallelStep("s")],
    ];
    for (const [name, step] of steps) {
      expectFindings(one(step, { repair: goodRepair() }), [`${R} repair.unsupported_step`], name);
      expectFindings(one(JSON.parse(JSON.stringify(step)), { repair: { mode: "fix", maxAttempts: 0, model: "m" } }), [
        `${R} repair.unsupported_step`,
        `${R}.mode repair.invalid_mode`,
        `${R}.maxAttempts repair.invalid_max_attempts`,
        `${R}.model schema.unimplemented_field`,
      ], `${name} with bad fields`);
    }
    const d = decisionStep("d", { default: "end" }, { needs: ["a"], onFailure: { repair: {} } });
    expectFindings(withSteps([toolStep("a"), d]), [
      "$.steps[1].onFailure.repair repair.unsupported_step",
      "$.steps[1].onFailure.repair.mode repair.invalid_mode",
      "$.steps[1].onFailure.repair.maxAttempts repair.invalid_max_attempts",
    ]);
  });

  test("repair.invalid_mode: neither self nor escalate (missing included)", () => {
    for (const mode of [undefined, null, "Self", "SELF", "retry", "", 1, ["self"]]) {
      const repair: Json = { maxAttempts: 2 };
      if (mode !== undefined) repair.mode = mode;
      expectFindings(one(aiStep("a"), { repair }), [`${R}.mode repair.invalid_mode`], JSON.stringify(mode));
    }
  });

  test("escalate is a known mode but unimplemented", () => {
    expectFindings(one(aiStep("a"), { repair: { mode: "escalate", maxAttempts: 2 } }), [`${R}.mode schema.unimplemented_field`]);
  });

  test("repair.invalid_max_attempts: not an integer >= 1 (no upper bound)", () => {
    for (const v of [undefined, 0, -1, 1.5, "2", null, true, [2]]) {
      const repair: Json = { mode: "self" };
      if (v !== undefined) repair.maxAttempts = v;
      expectFindings(one(aiStep("a"), { repair }), [`${R}.maxAttempts repair.invalid_max_attempts`], JSON.stringify(v));
    }
    for (const text of ["1", "2.0", "1e3", "1000000"]) {
      expectValid(one(aiStep("a"), { repair: { mode: "self", maxAttempts: JSON.parse(text) } }), text);
    }
  });

  test("repair.model: present with any value is unimplemented; no allow-list or type check", () => {
    for (const v of ["model-a", "not-allowed-model", null, 5, {}, ""]) {
      expectFindings(one(aiStep("a"), { repair: { ...goodRepair(), model: v } }), [`${R}.model schema.unimplemented_field`], JSON.stringify(v));
    }
  });

  test("escalate with a model: two unimplemented findings", () => {
    expectFindings(one(aiStep("a"), { repair: { mode: "escalate", maxAttempts: 1, model: "model-b" } }), [
      `${R}.mode schema.unimplemented_field`,
      `${R}.model schema.unimplemented_field`,
    ]);
  });
});

describe("fixer", () => {
  test("valid fixer on code.run", () => {
    expectValid(one(codeRunStep("c"), { fixer: goodFixer() }));
    expectValid(one(codeRunStep("c"), { fixer: { ...goodFixer(), maxAttempts: 5000, temperature: 0 } }));
  });

  test("fixer.invalid_config: present and not an object; other fixer checks skipped", () => {
    for (const v of [null, "model-a", [], 1]) {
      expectFindings(one(codeRunStep("c"), { fixer: v }), [`${F} fixer.invalid_config`], JSON.stringify(v));
      // Not even unsupported_step on a type that may not use a fixer.
      expectFindings(one(aiStep("a"), { fixer: v }), [`${F} fixer.invalid_config`], `ai ${JSON.stringify(v)}`);
    }
  });

  test("fixer.unsupported_step on every other known type, and the remaining checks still run", () => {
    for (const step of [aiStep("s"), toolStep("s"), parallelStep("s")]) {
      expectFindings(one(step, { fixer: goodFixer() }), [`${F} fixer.unsupported_step`], step.uses);
    }
    expectFindings(one(toolStep("s"), { fixer: {} }), [
      `${F} fixer.unsupported_step`,
      `${F}.model fixer.model.missing`,
      `${F}.maxAttempts fixer.max_attempts_invalid`,
      `${F}.system fixer.system_missing`,
    ]);
    const d = decisionStep("d", { default: "end" }, { needs: ["a"], onFailure: { fixer: { model: "nope", maxAttempts: 1, system: "x" } } });
    expectFindings(withSteps([toolStep("a"), d]), [
      "$.steps[1].onFailure.fixer fixer.unsupported_step",
      "$.steps[1].onFailure.fixer.model fixer.model.disallowed",
    ]);
  });

  test("an empty fixer on code.run", () => {
    expectFindings(one(codeRunStep("c"), { fixer: {} }), [
      `${F}.model fixer.model.missing`,
      `${F}.maxAttempts fixer.max_attempts_invalid`,
      `${F}.system fixer.system_missing`,
    ]);
  });

  test("fixer.model.missing: not a non-empty string", () => {
    for (const v of [undefined, "", null, 5, ["model-a"]]) {
      const fixer: Json = goodFixer();
      if (v === undefined) delete fixer.model; else fixer.model = v;
      expectFindings(one(codeRunStep("c"), { fixer }), [`${F}.model fixer.model.missing`], JSON.stringify(v));
    }
  });

  test("fixer.model.disallowed: not in permissions.models (exact, case-sensitive)", () => {
    for (const v of ["gpt-5", "Model-B", "model-b ", "search"]) {
      expectFindings(one(codeRunStep("c"), { fixer: { ...goodFixer(), model: v } }), [`${F}.model fixer.model.disallowed`], v);
    }
  });

  test("fixer.model.disallowed: always, when there is no usable allow-list", () => {
    const noPermissions = one(codeRunStep("c"), { fixer: goodFixer() });
    delete noPermissions.permissions;
    expectFindings(noPermissions, [`${F}.model fixer.model.disallowed`]);
    const noModels = one(codeRunStep("c"), { fixer: goodFixer() });
    delete noModels.permissions.models;
    expectFindings(noModels, [`${F}.model fixer.model.disallowed`]);
    const badModels = one(codeRunStep("c"), { fixer: goodFixer() });
    badModels.permissions.models = ["model-b", 7];
    expectFindings(badModels, ["$.permissions.models schema.invalid", `${F}.model fixer.model.disallowed`]);
  });

  test("fixer.max_attempts_invalid: not an integer >= 1 (no upper bound)", () => {
    for (const v of [undefined, 0, -3, 0.5, "3", null, false]) {
      const fixer: Json = goodFixer();
      if (v === undefined) delete fixer.maxAttempts; else fixer.maxAttempts = v;
      expectFindings(one(codeRunStep("c"), { fixer }), [`${F}.maxAttempts fixer.max_attempts_invalid`], JSON.stringify(v));
    }
  });

  test("fixer.system_missing: not a non-empty string", () => {
    for (const v of [undefined, "", null, 1, ["fix"]]) {
      const fixer: Json = goodFixer();
      if (v === undefined) delete fixer.system; else fixer.system = v;
      expectFindings(one(codeRunStep("c"), { fixer }), [`${F}.system fixer.system_missing`], JSON.stringify(v));
    }
  });
});

describe("repair and fixer together (repair checked before fixer)", () => {
  test("both are checked on the same step", () => {
    expectFindings(one(codeRunStep("c"), { repair: goodRepair(), fixer: goodFixer() }), [`${R} repair.unsupported_step`]);
    expectFindings(one(aiStep("a"), { repair: goodRepair(), fixer: goodFixer() }), [`${F} fixer.unsupported_step`]);
  });

  test("an invalid repair does not stop the fixer checks", () => {
    expectFindings(one(codeRunStep("c"), { repair: null, fixer: { model: "model-b", maxAttempts: 0, system: "" } }), [
      `${R} repair.invalid_config`,
      `${F}.maxAttempts fixer.max_attempts_invalid`,
      `${F}.system fixer.system_missing`,
    ]);
  });

  test("both malformed", () => {
    expectFindings(one(aiStep("a"), { repair: [], fixer: "x" }), [`${R} repair.invalid_config`, `${F} fixer.invalid_config`]);
  });

  test("in a parallel body the paths start at the body step", () => {
    const body = [aiStep("inner", { with: { model: "model-a", prompt: "{{ item }}" }, onFailure: { repair: { mode: "self" }, fixer: {} } })];
    expectFindings(withSteps([parallelStep("fan", body)]), [
      "$.steps[0].steps[0].onFailure.repair.maxAttempts repair.invalid_max_attempts",
      "$.steps[0].steps[0].onFailure.fixer fixer.unsupported_step",
      "$.steps[0].steps[0].onFailure.fixer.model fixer.model.missing",
      "$.steps[0].steps[0].onFailure.fixer.maxAttempts fixer.max_attempts_invalid",
      "$.steps[0].steps[0].onFailure.fixer.system fixer.system_missing",
    ]);
  });

  test("a base workflow step with onFailure keeps its other findings", () => {
    const doc = baseWorkflow();
    doc.steps[1].onFailure = { repair: { mode: "self", maxAttempts: 1 } };
    doc.steps[1].with.model = "gpt-x";
    expectFindings(doc, ["$.steps[1].with.model model.disallowed"]);
  });
});
