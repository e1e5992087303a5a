// schemas/lwir.schema.json, the JSON Schema of LWIR for editors without our server (`lwir schema` prints
// it): it must accept every document the corpus labels valid (a schema that flags a valid workflow is a
// false squiggle) and refuse the plain structural mistakes a schema can see.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Ajv from "ajv";
import { parse as parseYaml } from "yaml";

const SCHEMA = "schemas/lwir.schema.json";
const schema = JSON.parse(readFileSync(SCHEMA, "utf8")) as Record<string, unknown>;

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  assert.ok(ajv.validateSchema(schema), JSON.stringify(ajv.errors));
  return ajv.compile(schema);
}

/** The documents of a corpus folder labelled valid (only those are parsed: invalid YAML ones may warn). */
function validDocuments(dir: string): { name: string; value: unknown }[] {
  assert.ok(existsSync(dir), `${dir} is missing`);
  const out: { name: string; value: unknown }[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
    if (!m) continue;
    const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as { valid: boolean };
    if (!label.valid) continue;
    const text = readFileSync(join(dir, f), "utf8");
    out.push({ name: join(dir, f), value: m[2] === "json" ? JSON.parse(text) : parseYaml(text, { logLevel: "error" }) });
  }
  return out;
}

test("draft-07, and accepts every valid document of the conformance and real-world corpus", () => {
  assert.equal(schema.$schema, "http://json-schema.org/draft-07/schema#");
  const validate = validator();
  for (const dir of ["test/corpus/conformance", "test/corpus/realworld"]) {
    const valid = validDocuments(dir);
    assert.ok(valid.length >= 20, `only ${valid.length} valid documents in ${dir}`);
    for (const doc of valid) assert.ok(validate(doc.value), `${doc.name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
});

test("refuses clearly malformed documents", () => {
  const validate = validator();
  const base = validDocuments("test/corpus/realworld").find((d) => JSON.stringify(d.value).includes("ai.generate"))!.value as { steps?: Record<string, unknown>[]; [k: string]: unknown };
  assert.ok(validate(base));
  const mutations: Array<[string, (d: typeof base) => void]> = [
    ["missing apiVersion", (d) => { delete d.apiVersion; }],
    ["another apiVersion", (d) => { d.apiVersion = "littleworkflow.dev/v9"; }],
    ["kind", (d) => { d.kind = "Pipeline"; }],
    ["missing steps", (d) => { delete d.steps; }],
    ["unknown uses", (d) => { d.steps![0].uses = "shell.run"; }],
    ["step without id", (d) => { delete d.steps![0].id; }],
    ["dotted step id", (d) => { d.steps![0].id = "a.b"; }],
    ["maxVisits 0", (d) => { d.steps![0].maxVisits = 0; }],
    ["cache", (d) => { d.steps![0].cache = true; }],
    ["steps is an object", (d) => { d.steps = {} as never; }],
  ];
  for (const [name, mutate] of mutations) {
    const doc = structuredClone(base);
    mutate(doc);
    assert.equal(validate(doc), false, name);
  }
});

test("`lwir schema` prints the same schema (bundled into the CLI)", () => {
  const r = spawnSync(process.execPath, [resolve("dist/cli.js"), "schema"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), schema);
  const extra = spawnSync(process.execPath, [resolve("dist/cli.js"), "schema", "x"], { encoding: "utf8" });
  assert.equal(extra.status, 2);
});
