// schemas/lwir.schema.json, the JSON Schema the benchmark hands the generic peers: it must accept every
// valid LWIR document we know of (or the peers would be measured reporting false errors) and refuse the
// structural mistakes a schema can see.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import Ajv from "ajv";
import { parseYaml } from "./runtime-yaml";
import { CONFORMANCE, GENERATOR, REALWORLD, corpusCases } from "../corpus";

const ROOT = process.cwd();
const GEN = GENERATOR;

function validator() {
  const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "lwir.schema.json"), "utf8")) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

function generate(args: string[]): string {
  const r = spawnSync(process.execPath, [GEN, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("bench schema accepts every valid corpus and real-world document", () => {
  const validate = validator();
  let n = 0;
  for (const dir of [CONFORMANCE, REALWORLD]) {
    for (const f of corpusCases(dir).map((c) => c.name)) {
      const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
      if (!m) continue;
      const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as { valid: boolean };
      if (!label.valid) continue;
      const text = readFileSync(join(dir, f), "utf8");
      const value: unknown = m[2] === "json" ? JSON.parse(text) : parseYaml(text);
      assert.ok(validate(value), `${f}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      n++;
    }
  }
  assert.ok(n > 50, `only ${n} valid documents found`);
});

test("bench schema accepts generated benchmark workloads (JSON and YAML)", () => {
  const validate = validator();
  for (const seed of ["1", "2", "3"]) {
    for (const format of ["json", "yaml"]) {
      const text = generate(["--steps", "120", "--format", format, "--seed", seed]);
      const value: unknown = format === "json" ? JSON.parse(text) : parseYaml(text);
      assert.ok(validate(value), `seed ${seed} ${format}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  }
});

test("bench schema refuses the structural mistakes a schema can express", () => {
  const validate = validator();
  const base = JSON.parse(generate(["--steps", "10", "--seed", "1"])) as { steps: Record<string, unknown>[]; [k: string]: unknown };
  const mutations: Array<[string, (d: typeof base) => void]> = [
    ["maxVisits out of range", (d) => { d.steps[0].maxVisits = 101; }],
    ["unknown step type", (d) => { d.steps[0].uses = "shell.run"; }],
    ["missing output", (d) => { delete d.steps[0].output; }],
    ["cache", (d) => { d.steps[0].cache = true; }],
    ["bad step id", (d) => { d.steps[0].id = "a.b"; }],
    ["forbidden schema keyword", (d) => { (d.input as { schema: Record<string, unknown> }).schema.default = {}; }],
    ["wrong apiVersion", (d) => { d.apiVersion = "littleworkflow.dev/v9"; }],
    ["non-empty secrets", (d) => { (d.permissions as Record<string, unknown>).secrets = ["x"]; }],
  ];
  for (const [name, mutate] of mutations) {
    const doc = structuredClone(base);
    mutate(doc);
    assert.equal(validate(doc), false, name);
  }
  // a generated document with a maxVisits error (the third injected kind) is refused
  const withErrors = JSON.parse(generate(["--steps", "40", "--seed", "1", "--errors", "3"]));
  assert.equal(validate(withErrors), false);
});
