// The configuration file (.lwir.yaml / .lwir.json): reading it (service/config.ts), finding it upward
// (cli/config.ts), the precedence of its levels, and the built CLI with it (run `npm run build` first).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigLookup } from "../../server/src/cli/config";
import { isLwirFileName } from "../../server/src/cli/files";
import { isConfigFileName, mergeRules, parseConfig } from "../../server/src/service/config";
import { CONFIGURABLE_RULES } from "../../server/src/service/rules";
import { configCompletion } from "../../server/src/service/configCompletion";

const CLI = resolve("dist/cli.js");
const VALID_YAML = readFileSync("test/fixtures/cli/tree/valid.lwir.yaml", "utf8");
/** Valid for the runtime, with one notice of ours (lwir.yaml_unquoted_template, a warning by default). */
const UNQUOTED = VALID_YAML.replace('query: "{{ input.question }}"', "query: {{ input.question }}");

function lwir(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env, input: "" });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe("reading a configuration", () => {
  test("YAML and JSON give the same configuration; an empty file sets nothing", () => {
    const yaml = parseConfig("rules:\n  lwir.yaml_unquoted_template: off\nignore:\n  - generated/**\ninclude: [\"flows/*.yaml\"]\n", "yaml");
    const json = parseConfig('{"rules": {"lwir.yaml_unquoted_template": "off"}, "ignore": ["generated/**"], "include": ["flows/*.yaml"]}', "json");
    assert.deepEqual(yaml, { ok: true, config: { rules: { "lwir.yaml_unquoted_template": "off" }, ignore: ["generated/**"], include: ["flows/*.yaml"] } });
    assert.deepEqual(json, yaml);
    assert.deepEqual(parseConfig("", "yaml"), { ok: true, config: { rules: {}, ignore: [], include: [] } });
    assert.deepEqual(parseConfig("# only a comment\n", "yaml"), { ok: true, config: { rules: {}, ignore: [], include: [] } });
  });

  test("every mistake is a problem at its place, with a message that says what is expected", () => {
    const result = parseConfig("rules:\n  model.disallowed: off\n  lwir.nope: off\n  lwir.parse_warning: loud\nignore: generated\ninclde: []\n", "yaml");
    assert.equal(result.ok, false);
    const problems = (result as { problems: { message: string; range: { start: { line: number; character: number } } }[] }).problems;
    assert.deepEqual(problems.map((p) => [p.range.start.line, p.range.start.character]), [[1, 2], [2, 2], [3, 22], [4, 8], [5, 0]]);
    assert.match(problems[0].message, /^model\.disallowed is a problem the runtime refuses and is always an error/);
    assert.match(problems[1].message, /^Unknown rule lwir\.nope \(rules that have levels: .*lwir\.yaml_unquoted_template/);
    assert.equal(problems[2].message, 'Unknown level "loud" for lwir.parse_warning: off, hint, info, warning or error.');
    assert.match(problems[3].message, /^ignore must be a list of glob patterns/);
    assert.equal(problems[4].message, 'Unknown key "inclde": a configuration has rules, ignore and include.');
  });

  test("text that does not parse, or is not a mapping, is a problem too; nothing throws", () => {
    for (const [text, format] of [["{", "json"], ["rules: [", "yaml"], ["- a\n- b\n", "yaml"], ["42", "json"], ["\u0000\u0001", "yaml"], ["ignore: [1, '']", "yaml"]] as const) {
      const result = parseConfig(text, format);
      assert.equal(result.ok, false, text);
      assert.ok((result as { problems: unknown[] }).problems.length > 0);
    }
  });

  test("the configuration file is never taken for a workflow", () => {
    assert.ok(isConfigFileName(".lwir.yaml") && isConfigFileName(".lwir.json"));
    assert.ok(!isLwirFileName(".lwir.yaml") && !isLwirFileName(".lwir.json"));
    assert.ok(isLwirFileName("a.lwir.yaml"));
  });

  test("precedence: later layers win code by code (editor: settings, then the file; CLI: the file, then --rule)", () => {
    const settings = { "lwir.yaml_unquoted_template": "hint", "lwir.parse_warning": "info" } as const;
    const file = { "lwir.yaml_unquoted_template": "error" } as const;
    assert.deepEqual(mergeRules(settings, file), { "lwir.yaml_unquoted_template": "error", "lwir.parse_warning": "info" });
    assert.deepEqual(mergeRules(file, { "lwir.yaml_unquoted_template": "off" }), { "lwir.yaml_unquoted_template": "off" });
    assert.deepEqual(mergeRules(undefined, settings), settings);
    assert.deepEqual(mergeRules(), {});
  });
});

describe("finding the configuration upward", () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-config-"));
    mkdirSync(join(tmp, "a", "b", "c"), { recursive: true });
    mkdirSync(join(tmp, "other"), { recursive: true });
    writeFileSync(join(tmp, ".lwir.yaml"), "rules:\n  lwir.yaml_unquoted_template: error\n");
    writeFileSync(join(tmp, "a", "b", ".lwir.json"), '{"rules": {"lwir.yaml_unquoted_template": "off"}, "ignore": ["gen/**"]}');
    writeFileSync(join(tmp, "other", ".lwir.yaml"), "rules: {lwir.yaml_unquoted_template: loud}\n");
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("the nearest file above applies; a file in a parent folder is found from deep below", () => {
    const lookup = new ConfigLookup(tmp);
    assert.deepEqual(lookup.forFile("x.lwir.yaml")?.config.rules, { "lwir.yaml_unquoted_template": "error" });
    assert.deepEqual(lookup.forFile("a/x.lwir.yaml")?.config.rules, { "lwir.yaml_unquoted_template": "error" });
    assert.deepEqual(lookup.forFile("a/b/c/x.lwir.yaml")?.config.rules, { "lwir.yaml_unquoted_template": "off" });
    assert.equal(lookup.forFile("a/b/c/x.lwir.yaml")?.folder, join(tmp, "a", "b"));
    // ignore is relative to the configuration file's folder
    assert.ok(lookup.ignores("a/b/gen/x.lwir.yaml"));
    assert.ok(!lookup.ignores("a/gen/x.lwir.yaml"));
    assert.deepEqual(lookup.errors, []);
  });

  test("a configuration that cannot be used is recorded once with FILE:LINE:COL, never thrown", () => {
    const lookup = new ConfigLookup(tmp);
    assert.equal(lookup.forFile("other/x.lwir.yaml"), undefined);
    assert.equal(lookup.forFile("other/y.lwir.yaml"), undefined);
    assert.equal(lookup.errors.length, 1);
    assert.equal(lookup.errors[0].file, join("other", ".lwir.yaml"));
    assert.deepEqual(lookup.errors[0].lines, [`${join("other", ".lwir.yaml")}:1:38: Unknown level "loud" for lwir.yaml_unquoted_template: off, hint, info, warning or error.`]);
  });
});

describe("the CLI with a configuration file", () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-config-cli-"));
    mkdirSync(join(tmp, "flows", "deep"), { recursive: true });
    mkdirSync(join(tmp, "generated"), { recursive: true });
    mkdirSync(join(tmp, "extra"), { recursive: true });
    writeFileSync(join(tmp, "flows", "deep", "uq.lwir.yaml"), UNQUOTED);
    copyFileSync("test/fixtures/cli/tree/findings.lwir.json", join(tmp, "generated", "bad.lwir.json"));
    writeFileSync(join(tmp, "extra", "named-otherwise.yaml"), UNQUOTED); // an LWIR document without an LWIR name
    writeFileSync(join(tmp, "extra", "not-lwir.yaml"), "name: ci\non: push\n");
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const config = (text: string, name = ".lwir.yaml") => {
    rmSync(join(tmp, ".lwir.yaml"), { force: true });
    rmSync(join(tmp, ".lwir.json"), { force: true });
    writeFileSync(join(tmp, name), text);
  };

  test("without a configuration: the notice is a warning (exit 0) and generated/ is checked (exit 1)", () => {
    rmSync(join(tmp, ".lwir.yaml"), { force: true });
    rmSync(join(tmp, ".lwir.json"), { force: true });
    assert.equal(lwir(["validate", "flows"], tmp).status, 0);
    assert.equal(lwir(["validate", "."], tmp).status, 1);
  });

  test("rules: the file's level applies below it, found from a subfolder; --rule overrides it", () => {
    config("rules:\n  lwir.yaml_unquoted_template: error\n");
    const raised = lwir(["validate", "--format", "json", "deep"], join(tmp, "flows"));
    assert.equal(raised.status, 1, raised.stderr);
    const notices = (JSON.parse(raised.stdout) as { files: { notices: { code: string; severity: string }[] }[] }).files[0].notices;
    assert.deepEqual(notices.map((n) => [n.code, n.severity]), [["lwir.yaml_unquoted_template", "error"]]);
    assert.equal(lwir(["validate", "--rule", "lwir.yaml_unquoted_template=warning", "flows"], tmp).status, 0, "the flag wins");
    // Standard input takes the configuration of where --stdin-filename puts it.
    const res = spawnSync(process.execPath, [CLI, "validate", "--stdin-filename", "flows/s.lwir.yaml", "-"], { encoding: "utf8", cwd: tmp, input: UNQUOTED });
    assert.equal(res.status, 1, res.stderr);
  });

  test("ignore: folders and files left out of the walk; a named file that is ignored is skipped with a notice", () => {
    config('{"ignore": ["generated/**"]}', ".lwir.json");
    const walk = lwir(["validate", "."], tmp);
    assert.equal(walk.status, 0, walk.stdout + walk.stderr);
    assert.doesNotMatch(walk.stdout, /generated/);
    const named = lwir(["validate", "generated/bad.lwir.json", "flows"], tmp);
    assert.equal(named.status, 0);
    assert.equal(named.stderr, "lwir: notice: generated/bad.lwir.json: ignored (an ignore pattern matches it)\n");
  });

  test("include: more files by pattern, checked only when they declare an LWIR apiVersion", () => {
    config("include:\n  - extra/*.yaml\nignore: [generated/**]\n");
    const res = lwir(["validate", "--format", "json", "."], tmp);
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual((JSON.parse(res.stdout) as { files: { file: string }[] }).files.map((f) => f.file).sort(), ["./extra/named-otherwise.yaml", "./flows/deep/uq.lwir.yaml"]);
    // The configuration file itself is never checked as a workflow.
    assert.doesNotMatch(res.stdout, /"\.\/\.lwir\.yaml"/);
  });

  test("a bad configuration stops the run with exit 2 and FILE:LINE:COL: what is wrong; nothing on stdout", () => {
    config("rules:\n  lwir.yaml_unquoted_template: loud\nignre: []\n");
    const res = lwir(["validate", "--format", "json", "flows"], tmp);
    assert.equal(res.status, 2);
    assert.equal(res.stdout, "");
    assert.equal(res.stderr, [
      'lwir: .lwir.yaml:2:32: Unknown level "loud" for lwir.yaml_unquoted_template: off, hint, info, warning or error.',
      'lwir: .lwir.yaml:3:1: Unknown key "ignre": a configuration has rules, ignore and include.',
      "lwir: fix the configuration file, then run again (docs/configuration.md)",
      "",
    ].join("\n"));
    config("{ not json", ".lwir.json");
    const json = lwir(["validate", "flows"], tmp);
    assert.equal(json.status, 2);
    assert.match(json.stderr, /^lwir: \.lwir\.json:1:\d+: .+\n/);
    assert.doesNotMatch(json.stderr, /internal error|at .*\.js:\d+/);
  });

  test("a folder named .lwir.yaml is not a configuration and breaks nothing", () => {
    rmSync(join(tmp, ".lwir.yaml"), { force: true });
    rmSync(join(tmp, ".lwir.json"), { force: true });
    mkdirSync(join(tmp, "flows", ".lwir.yaml"));
    try {
      assert.equal(lwir(["validate", "flows"], tmp).status, 0);
    } finally {
      rmSync(join(tmp, "flows", ".lwir.yaml"), { recursive: true });
    }
  });
});

describe("the configuration's JSON Schema (completion and validation of .lwir.json in VS Code)", () => {
  const schema = JSON.parse(readFileSync("schemas/lwir-config.schema.json", "utf8")) as {
    additionalProperties: boolean; properties: { rules: { properties: Record<string, { enum: string[]; default: string }> } };
  };
  const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
    contributes: { jsonValidation: { fileMatch: string[]; url: string }[]; yamlValidation: { fileMatch: string | string[]; url: string }[] };
  };

  test("contributed for .lwir.json and .lwir.yaml, and kept off the workflow schema", () => {
    const forConfig = manifest.contributes.jsonValidation.filter((j) => j.fileMatch.includes(".lwir.json"));
    assert.deepEqual(forConfig.map((j) => j.url), ["./schemas/lwir-config.schema.json"]);
    const workflows = manifest.contributes.jsonValidation.find((j) => j.fileMatch.includes("*.lwir.json"));
    assert.ok(workflows?.fileMatch.includes("!.lwir.json"), "*.lwir.json would also match .lwir.json");
    assert.deepEqual(manifest.contributes.yamlValidation[0], { fileMatch: ".lwir.yaml", url: "./schemas/lwir-config.schema.json" });
  });

  test("scenarios files (NAME.lwir.test.yaml|yml|json) get the scenarios schema, not the workflow's", () => {
    const json = manifest.contributes.jsonValidation.filter((j) => j.url === "./schemas/lwir-test.schema.json");
    assert.deepEqual(json.map((j) => j.fileMatch), [["*.lwir.test.json"]]);
    assert.deepEqual(manifest.contributes.yamlValidation.slice(1), [{ fileMatch: ["*.lwir.test.yaml", "*.lwir.test.yml"], url: "./schemas/lwir-test.schema.json" }]);
  });

  test("names exactly the rules that have levels, with their defaults, and no other key", () => {
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties.rules.properties).sort(), CONFIGURABLE_RULES.map((r) => r.code).sort());
    for (const rule of CONFIGURABLE_RULES) {
      assert.deepEqual(schema.properties.rules.properties[rule.code].enum, ["off", "hint", "info", "warning", "error"]);
      assert.equal(schema.properties.rules.properties[rule.code].default, rule.severity);
    }
  });
});

describe("completion in .lwir.yaml (without a YAML extension)", () => {
  const labels = (text: string, line: number, character: number) => configCompletion(text, { line, character }).map((i) => i.label);
  test("the keys not written yet at the top level; rule codes under rules:; levels after a code", () => {
    assert.deepEqual(labels("", 0, 0), ["rules", "ignore", "include"]);
    assert.deepEqual(labels("rules:\n  \n", 2, 0), ["ignore", "include"]);
    assert.deepEqual(labels("rules:\n  \n", 1, 2), CONFIGURABLE_RULES.map((r) => r.code));
    assert.deepEqual(labels("rules:\n  lwir.parse_warning: off\n  \n", 2, 2), CONFIGURABLE_RULES.map((r) => r.code).filter((c) => c !== "lwir.parse_warning"));
    assert.deepEqual(labels("rules:\n  lwir.parse_warning: \n", 1, 22), ["off", "hint", "info", "warning", "error"]);
    assert.deepEqual(labels("ignore:\n  - \n", 1, 4), [], "nothing to offer for a glob");
  });
});
