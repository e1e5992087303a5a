// The pre-commit hook (.pre-commit-hooks.yaml): its manifest has what pre-commit requires, and its entry
// works after the install pre-commit does for `language: node` hooks: `npm install` in a clone (the
// download replaced by a link to this checkout's node_modules; see repo-copy.ts), `npm pack` (which runs
// `prepare`, the build), then the package's files with the `lwir` bin on PATH. pre-commit then runs the
// entry with the staged file names that match `files` as arguments.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { copyCheckout, npmStandIn, tempDir } from "./repo-copy";

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
    // pre-commit needs a version new enough for the node language's npm pack install
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
    let checkout = "";

    before(() => {
      checkout = copyCheckout();
      const npm = npmStandIn();
      const env = { ...process.env, PATH: `${npm.bin}:${process.env.PATH}` };
      const install = spawnSync("npm", ["install", "--include=dev", "--include=prod", "--no-progress", "--no-save"], { cwd: checkout, env, encoding: "utf8" });
      assert.equal(install.status, 0, install.stderr);
      const dest = tempDir("lwir-pack-");
      const pack = spawnSync("npm", ["pack", "--pack-destination", dest], { cwd: checkout, env, encoding: "utf8" });
      assert.equal(pack.status, 0, pack.stderr);
      const tarball = readdirSync(dest).find((f) => f.endsWith(".tgz"));
      assert.ok(tarball, `npm pack made no tarball: ${pack.stdout}`);
      const untar = spawnSync("tar", ["-xzf", join(dest, tarball), "-C", dest]);
      assert.equal(untar.status, 0);
      pkgDir = join(dest, "package");
      // What `npm install -g` does with a package's bin: an executable link on the environment's PATH.
      const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin: Record<string, string> };
      envBin = join(dest, "env", "bin");
      mkdirSync(envBin, { recursive: true });
      for (const [name, target] of Object.entries(manifest.bin)) {
        chmodSync(join(pkgDir, target), 0o755);
        symlinkSync(join(pkgDir, target), join(envBin, name));
      }
    });

    test("npm pack (after prepare built dist/) ships the lwir bin, the schema, and no sources or tests", () => {
      assert.ok(existsSync(join(checkout, "dist", "cli.js")), "prepare built dist/ in the clone");
      assert.ok(existsSync(join(envBin, "lwir")));
      assert.match(readFileSync(join(pkgDir, "dist", "cli.js"), "utf8").split("\n")[0], /^#!\/usr\/bin\/env node/);
      assert.ok(existsSync(join(pkgDir, "schemas", "lwir.schema.json")));
      for (const absent of ["server", "client", "test", "node_modules", "scripts", "action.yml"]) assert.ok(!existsSync(join(pkgDir, absent)), absent);
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

    test("prepare does nothing in an installed package (no sources there)", () => {
      const r = spawnSync(process.execPath, [join(checkout, "scripts", "prepare.mjs")], { cwd: pkgDir, encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout + r.stderr, "");
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
