// The pre-commit hook (.pre-commit-hooks.yaml): its manifest has what pre-commit requires, and its entry
// works after the install pre-commit 4.x does for `language: node` hooks: `npm install -g git+file://CLONE`
// into the hook's environment (pre-commit's languages/node.py), where npm packs the clone (no dev dependency,
// no install script: npm 11 refuses them) and installs the package with its `bin`. Here: the same package
// made by `npm pack`, installed with `npm install -g --offline` on a prefix of its own (offline: it has no
// dependency to fetch), then the entry run with the file names pre-commit passes. The real pre-commit runs
// the hook in `npm run test:e2e` (test/e2e/pre-commit).
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { tempDir } from "./repo-copy";
interface Hook { [key: string]: unknown; id: string; name: string; entry: string; language: string; files: string }

// The keys pre-commit's manifest schema knows (anything else is a warning there, a typo here).
const KNOWN_KEYS = new Set(["id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or", "exclude_types",
  "additional_dependencies", "args", "always_run", "fail_fast", "pass_filenames", "description", "language_version", "log_file",
  "minimum_pre_commit_version", "require_serial", "stages", "verbose"]);

const hooks = parseYaml(readFileSync(".pre-commit-hooks.yaml", "utf8")) as Hook[];

describe("pre-commit hook (.pre-commit-hooks.yaml)", () => {
  test("one hook, lwir-validate, with every field pre-commit requires", () => {
    assert.ok(Array.isArray(hooks));
    assert.deepEqual(hooks.map((h) => h.id), ["lwir-validate"]);
    const hook = hooks[0];
    for (const key of ["id", "name", "entry", "language"]) assert.equal(typeof hook[key], "string", key);
    for (const key of Object.keys(hook)) assert.ok(KNOWN_KEYS.has(key), `unknown key ${key}`);
    assert.equal(hook.language, "node");
    assert.deepEqual(hook.types, ["file"]);
    // pre-commit installs node hooks with `npm install -g git+file://…` since 2.9.0
    assert.match(String(hook.minimum_pre_commit_version), /^\d+\.\d+\.\d+$/);
  });

  test("files matches the LWIR names and nothing else (the same names lwir picks in folders)", () => {
    const files = new RegExp(hooks[0].files); // pre-commit uses re.search; this pattern means the same in JS
    for (const name of ["a.lwir.json", "flows/b.lwir.yaml", "c d.lwir.yml"]) assert.ok(files.test(name), name);
    for (const name of ["a.json", "a.lwir.json.bak", "lwir.yaml", "a.lwir.toml", "a.yaml"]) assert.ok(!files.test(name), name);
  });

  describe("installed as pre-commit installs it", () => {
    let envBin = "";
    let pkgDir = "";

    before(() => {
      const dest = tempDir("lwir-pack-");
      const pack = spawnSync("npm", ["pack", "--pack-destination", dest], { encoding: "utf8" });
      assert.equal(pack.status, 0, pack.stderr);
      const tarball = readdirSync(dest).find((f) => f.endsWith(".tgz"));
      assert.ok(tarball, `npm pack made no tarball: ${pack.stdout}`);
      const prefix = join(dest, "env"); // pre-commit's NPM_CONFIG_PREFIX: the hook's node_env
      const install = spawnSync("npm", ["install", "-g", "--offline", "--no-audit", "--no-fund", join(dest, tarball)],
        { encoding: "utf8", env: { ...process.env, npm_config_prefix: prefix, NPM_CONFIG_PREFIX: prefix } });
      assert.equal(install.status, 0, install.stderr);
      envBin = join(prefix, "bin");
      pkgDir = join(prefix, "lib", "node_modules", "lwir-tools");
    });

    test("the package is the committed CLI bundles (the CLI, lwir mcp's) and the schema: no build, no dependency, no sources", () => {
      assert.ok(existsSync(join(envBin, "lwir")));
      assert.deepEqual(readdirSync(pkgDir).sort(), ["LICENSE", "README.md", "bundle", "package.json", "schemas"]);
      assert.deepEqual(readdirSync(join(pkgDir, "bundle")).sort(), ["lwir-mcp.js", "lwir.js"]);
      assert.match(readFileSync(join(pkgDir, "bundle", "lwir.js"), "utf8").split("\n")[0], /^#!\/usr\/bin\/env node/);
      assert.ok(existsSync(join(pkgDir, "schemas", "lwir.schema.json")));
    });

    test("nothing must run at install time: no dependencies, no install or prepare script (npm 11 would refuse it)", () => {
      const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies?: object; scripts: Record<string, string>; bin: Record<string, string> };
      assert.deepEqual(Object.keys(manifest.dependencies ?? {}), [], "the bundle holds every dependency: put new ones in devDependencies");
      for (const script of ["preinstall", "install", "postinstall", "prepare", "prepack"]) assert.equal(manifest.scripts[script], undefined, script);
      // The bin is a file of the repository (a clone has it), not a build output.
      for (const target of Object.values(manifest.bin)) {
        const ignored = spawnSync("git", ["check-ignore", "-q", target]);
        assert.equal(ignored.status, 1, `${target} is git-ignored: a clone would not have it`);
      }
    });

    function runHook(files: string[]) {
      const hook = hooks[0];
      const matching = files.filter((f) => new RegExp(hook.files).test(f));
      const [command, ...args] = hook.entry.split(" ");
      const repo = tempDir("lwir-repo-");
      for (const f of files) {
        mkdirSync(join(repo, f, ".."), { recursive: true });
        copyFileSync(join("test/corpus", f), join(repo, f));
      }
      // The hook's environment: no node_modules of ours anywhere near, only the installed bin.
      return { matching, r: spawnSync(command, [...args, ...matching], { cwd: repo, env: { ...process.env, PATH: `${envBin}:${process.env.PATH}`, NO_COLOR: "1" }, encoding: "utf8" }) };
    }

    test("valid staged files: exit 0", () => {
      const json = "realworld/" + validCorpusFile("json");
      const { matching, r } = runHook([json, "realworld/" + validCorpusFile("yaml"), json.replace(/\.lwir\.json$/, ".expected.json")]);
      assert.equal(matching.length, 2, "the .expected.json file is not passed");
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /2 files checked, no problems/);
    });

    test("an invalid staged file: exit 1 and the problem is printed", () => {
      const { r } = runHook(["realworld/" + validCorpusFile("yaml"), "conformance/code-invalid-config--no-with.lwir.json"]);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /^conformance\/code-invalid-config--no-with\.lwir\.json:\d+:\d+ {2}error {2}/m);
    });

  });
});

function validCorpusFile(format: "json" | "yaml"): string {
  for (const f of readdirSync("test/corpus/realworld").sort()) {
    const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
    if (!m || m[2] !== format) continue;
    const label = JSON.parse(readFileSync(join("test/corpus/realworld", `${m[1]}.expected.json`), "utf8")) as { valid: boolean };
    if (label.valid) return f;
  }
  throw new Error(`no valid ${format} document in test/corpus/realworld`);
}
