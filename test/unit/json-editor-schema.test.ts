// The schema VS Code's own JSON support gets for *.lwir.json (package.json contributes.jsonValidation):
// it must accept every document, so that JSON support reports nothing beyond syntax errors and proposes
// no values of its own (see the schema's $comment), while LWIR Tools validates and completes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";

const ROOT = process.cwd();
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

test("*.lwir.json files get a schema of annotations only, which accepts every corpus document", () => {
  const entries = manifest.contributes.jsonValidation as Array<{ fileMatch: string[]; url: string }>;
  const entry = entries.find((e) => e.fileMatch.includes("*.lwir.json"));
  assert.ok(entry, "a jsonValidation entry for *.lwir.json");
  const schema = JSON.parse(readFileSync(join(ROOT, entry.url), "utf8"));
  assert.deepEqual(Object.keys(schema).filter((k) => !["$comment", "title", "description"].includes(k)), [], "no keyword that constrains or proposes");
  const validate = new Ajv({ strict: true }).compile(schema);
  const dir = join(ROOT, "test", "corpus", "conformance");
  let checked = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".lwir.json"))) {
    let value: unknown;
    try { value = JSON.parse(readFileSync(join(dir, name), "utf8")); } catch { continue; }
    assert.ok(validate(value), name);
    checked++;
  }
  assert.ok(checked > 100, `${checked} documents`);
});
