// TextMate grammars in syntaxes/: runs the vscode-tmgrammar-test fixtures (test/grammar/) through
// scripts/test-grammars.mjs, and checks that every include in the grammars points at an existing rule
// (vscode-textmate silently ignores broken includes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = process.cwd();
const syntaxes = join(root, "syntaxes");

test("grammar fixtures pass (scripts/test-grammars.mjs)", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts/test-grammars.mjs")], { cwd: root, encoding: "utf8" });
  const out = `${r.stdout}${r.stderr}`;
  const m = /grammar: (\d+) passed, (\d+) failed/.exec(out);
  assert.ok(m, `no summary line in output:\n${out}`);
  assert.equal(Number(m[2]), 0, out);
  assert.ok(Number(m[1]) > 0, out);
  assert.equal(r.status, 0, out);
});

test("grammar includes resolve", () => {
  type Rule = { include?: string; patterns?: Rule[]; repository?: Record<string, Rule>; [k: string]: unknown };
  const grammars = new Map<string, Rule & { scopeName: string }>();
  for (const f of readdirSync(syntaxes).filter((f) => f.endsWith(".tmLanguage.json"))) {
    const g = JSON.parse(readFileSync(join(syntaxes, f), "utf8"));
    assert.equal(typeof g.scopeName, "string", `${f}: scopeName`);
    grammars.set(g.scopeName, g);
  }
  assert.ok(grammars.has("source.lwir-expression"));
  const hosts = new Set(["source.json", "source.yaml"]);
  const walk = (rule: unknown, self: Rule & { scopeName: string }, where: string): void => {
    if (Array.isArray(rule)) return rule.forEach((r, i) => walk(r, self, `${where}[${i}]`));
    if (!rule || typeof rule !== "object") return;
    const r = rule as Rule;
    if (typeof r.include === "string" && r.include !== "$self" && r.include !== "$base") {
      const [scope, name] = r.include.startsWith("#") ? [self.scopeName, r.include.slice(1)] : r.include.split("#");
      if (!hosts.has(scope)) {
        const target = grammars.get(scope);
        assert.ok(target, `${where}: unknown grammar ${scope}`);
        if (name) assert.ok(target.repository?.[name], `${where}: ${r.include} does not exist`);
      }
    }
    for (const [k, v] of Object.entries(r)) if (typeof v === "object") walk(v, self, `${where}.${k}`);
  };
  for (const g of grammars.values()) walk(g, g, g.scopeName);
});
