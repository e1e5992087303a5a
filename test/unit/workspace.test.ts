// service/workspace.ts and service/settings.ts: which documents are LWIR, the per-version analysis
// cache with its "last good" analysis, and reading settings in every shape clients send them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LwirWorkspace, classifyDocument, declaresLwir, fileNameOf } from "../../server/src/service/workspace";
import { DEFAULT_SETTINGS, readSettings, type LwirSettings } from "../../server/src/service/settings";

const LWIR_JSON = '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "kind": "Workflow"\n}\n';
const LWIR_YAML = "# a workflow\napiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n";
const MB8 = DEFAULT_SETTINGS.maxFileSize;

function doc(uri: string, text: string, languageId = "plaintext", version = 1) {
  return TextDocument.create(uri, languageId, version, text);
}

describe("classifyDocument: which documents are LWIR", () => {
  test("by name, whatever the content and language id", () => {
    assert.deepEqual(classifyDocument(doc("file:///a/x.lwir.json", "[]", "json"), MB8), { kind: "lwir", format: "json" });
    assert.deepEqual(classifyDocument(doc("file:///a/x.lwir.yaml", "", "plaintext"), MB8), { kind: "lwir", format: "yaml" });
    assert.deepEqual(classifyDocument(doc("file:///a/x.lwir.yml", "a: 1", "yaml"), MB8), { kind: "lwir", format: "yaml" });
    assert.deepEqual(classifyDocument(doc("file:///a/x.LWIR.JSON", "{}", "json"), MB8), { kind: "lwir", format: "json" });
  });

  test("by a top-level apiVersion in a JSON or YAML document", () => {
    assert.deepEqual(classifyDocument(doc("file:///a/flow.json", LWIR_JSON, "json"), MB8), { kind: "lwir", format: "json" });
    assert.deepEqual(classifyDocument(doc("untitled:Untitled-1", LWIR_JSON, "jsonc"), MB8), { kind: "lwir", format: "json" });
    assert.deepEqual(classifyDocument(doc("file:///a/flow.yaml", LWIR_YAML, "yaml"), MB8), { kind: "lwir", format: "yaml" });
    assert.deepEqual(classifyDocument(doc("file:///a/flow.yml", LWIR_YAML), MB8), { kind: "lwir", format: "yaml" }, "by extension");
    assert.deepEqual(classifyDocument(doc("file:///a/flow.yaml", "{apiVersion: 'littleworkflow.dev/v0.1'}", "yaml"), MB8),
      { kind: "lwir", format: "yaml" }, "YAML flow mapping");
  });

  test("ordinary documents are ignored", () => {
    const ignored = { kind: "ignored" };
    assert.deepEqual(classifyDocument(doc("file:///a/package.json", '{"name": "x"}', "json"), MB8), ignored);
    assert.deepEqual(classifyDocument(doc("file:///a/k8s.yaml", "apiVersion: apps/v1\nkind: Deployment\n", "yaml"), MB8), ignored);
    assert.deepEqual(classifyDocument(doc("file:///a/notes.txt", LWIR_YAML, "plaintext"), MB8), ignored, "not JSON or YAML");
    assert.deepEqual(classifyDocument(doc("file:///a/flow.md", LWIR_YAML, "markdown"), MB8), ignored);
  });

  test("only the top level counts", () => {
    const nested = '{"items": [{"apiVersion": "littleworkflow.dev/v0.1"}]}';
    assert.deepEqual(classifyDocument(doc("file:///a/list.json", nested, "json"), MB8), { kind: "ignored" });
    const inString = '{"note": "\\"apiVersion\\": \\"littleworkflow.dev/v0.1\\""}';
    assert.deepEqual(classifyDocument(doc("file:///a/s.json", inString, "json"), MB8), { kind: "ignored" });
    const array = '[{"apiVersion": "littleworkflow.dev/v0.1"}]';
    assert.deepEqual(classifyDocument(doc("file:///a/arr.json", array, "json"), MB8), { kind: "ignored" });
    const indented = "spec:\n  apiVersion: littleworkflow.dev/v0.1\n";
    assert.deepEqual(classifyDocument(doc("file:///a/i.yaml", indented, "yaml"), MB8), { kind: "ignored" });
    const laterKey = '{"a": {"b": [1, {"c": "}"}]}, // }\n "apiVersion": "littleworkflow.dev/v0.1"}';
    assert.deepEqual(classifyDocument(doc("file:///a/c.json", laterKey, "jsonc"), MB8), { kind: "lwir", format: "json" });
  });

  test("above maxFileSize: too large, with the UTF-8 size", () => {
    const big = LWIR_JSON + " ".repeat(200);
    assert.deepEqual(classifyDocument(doc("file:///a/flow.json", big, "json"), 100), { kind: "tooLarge", format: "json", size: big.length, limit: 100 });
    const multibyte = '{"apiVersion": "littleworkflow.dev/v0.1", "x": "' + "é".repeat(40) + '"}';
    const state = classifyDocument(doc("file:///a/m.lwir.json", multibyte, "json"), multibyte.length + 10);
    assert.deepEqual(state, { kind: "tooLarge", format: "json", size: multibyte.length + 40, limit: multibyte.length + 10 });
    assert.deepEqual(classifyDocument(doc("file:///a/package.json", '{"name": "' + "x".repeat(500) + '"}', "json"), 100), { kind: "ignored" });
  });

  test("the UTF-8 size is exact wherever it decides: one to four bytes per character, as Buffer counts", () => {
    const pieces = ["a", "\n", "é", "—", "€", "😀", "𝄞", "ß", "中", "{{ steps.x }}"];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      let body = "";
      const n = 1 + Math.floor(random() * 60);
      for (let i = 0; i < n; i++) body += pieces[Math.floor(random() * pieces.length)];
      const text = `apiVersion: littleworkflow.dev/v0.1\nx: "${body}"\n`;
      const bytes = Buffer.byteLength(text, "utf8");
      // a limit just below the size: too large, with the exact size; at the size: fine
      if (bytes > text.length) {
        assert.deepEqual(classifyDocument(doc("file:///a/w.lwir.yaml", text, "yaml"), bytes - 1), { kind: "tooLarge", format: "yaml", size: bytes, limit: bytes - 1 });
      }
      assert.deepEqual(classifyDocument(doc("file:///a/w.lwir.yaml", text, "yaml"), bytes), { kind: "lwir", format: "yaml" });
    }
  });

  test("a document that knows its length is read only where the length does not decide", () => {
    // LazyTextDocument right after an edit: building its text is what completion avoids
    const lazy = (uri: string, length: number, text: string) => ({
      uri, languageId: "json", version: 2, length,
      getText: () => { reads++; return text; },
    });
    let reads = 0;
    assert.deepEqual(classifyDocument(lazy("file:///a/x.lwir.json", 1_000_000, "{}"), MB8), { kind: "lwir", format: "json" });
    assert.deepEqual(classifyDocument(lazy("file:///a/x.lwir.json", MB8 + 1, "{}"), MB8), { kind: "tooLarge", format: "json", size: MB8 + 1, limit: MB8 });
    assert.equal(reads, 0, "named, and the length decides the size");
    assert.deepEqual(classifyDocument(lazy("file:///a/x.json", 40, '{"apiVersion": "littleworkflow.dev/v0.1"}'), MB8), { kind: "lwir", format: "json" });
    assert.equal(reads, 1, "not named: the text is searched for apiVersion");
    assert.deepEqual(classifyDocument(lazy("file:///a/x.lwir.json", 3_000_000, "é".repeat(3_000_000)), MB8), { kind: "lwir", format: "json" });
    assert.equal(reads, 2, "near the limit: the UTF-8 size is counted");
  });

  test("declaresLwir searches only the given prefix", () => {
    const text = '{"a": "' + "x".repeat(1000) + '", "apiVersion": "littleworkflow.dev/v0.1"}';
    assert.equal(declaresLwir(text, "json", text.length), true);
    assert.equal(declaresLwir(text, "json", 500), false);
  });

  test("fileNameOf", () => {
    assert.equal(fileNameOf("file:///a/b/my%20flow.lwir.yaml?x=1#frag"), "my flow.lwir.yaml");
    assert.equal(fileNameOf("untitled:Untitled-1"), "untitled:Untitled-1");
  });
});

describe("LwirWorkspace: one analysis per version, and the last good one", () => {
  function setup(settings: LwirSettings = DEFAULT_SETTINGS) {
    const docs = new Map<string, TextDocument>();
    const workspace = new LwirWorkspace({ get: (uri) => docs.get(uri) }, () => settings);
    return { docs, workspace };
  }

  test("the same analysis object until the version changes", () => {
    const { docs, workspace } = setup();
    const uri = "file:///a/x.lwir.json";
    docs.set(uri, doc(uri, LWIR_JSON, "json", 1));
    const first = workspace.getAnalysis(uri);
    assert.ok(first);
    assert.equal(workspace.getAnalysis(uri), first);
    docs.set(uri, TextDocument.update(docs.get(uri)!, [{ text: LWIR_JSON.replace("Workflow", "Flow") }], 2));
    const second = workspace.getAnalysis(uri);
    assert.notEqual(second, first);
    assert.ok(second!.findings.some((f) => f.code === "schema.invalid" && f.path === "$.kind"));
  });

  test("a broken version keeps the last good analysis", () => {
    const { docs, workspace } = setup();
    const uri = "file:///a/x.lwir.json";
    docs.set(uri, doc(uri, LWIR_JSON, "json", 1));
    const good = workspace.getAnalysis(uri)!;
    assert.equal(workspace.getLastGood(uri), good);
    docs.set(uri, TextDocument.update(docs.get(uri)!, [{ text: '{"apiVersion": "littleworkflow.dev/v0.1", "steps": [' }], 2));
    const broken = workspace.getAnalysis(uri)!;
    assert.ok(broken.document.parseErrors.length > 0);
    assert.equal(workspace.getLastGood(uri), good);
    workspace.forget(uri);
    assert.equal(workspace.getLastGood(uri), undefined);
  });

  test("documents that are not open, not LWIR, or too large have no analysis", () => {
    const { docs, workspace } = setup({ ...DEFAULT_SETTINGS, maxFileSize: 50 });
    assert.equal(workspace.getAnalysis("file:///nope.lwir.json"), undefined);
    assert.equal(workspace.getState("file:///nope.lwir.json"), undefined);
    docs.set("file:///a/package.json", doc("file:///a/package.json", "{}", "json"));
    assert.equal(workspace.getAnalysis("file:///a/package.json"), undefined);
    assert.deepEqual(workspace.getState("file:///a/package.json"), { kind: "ignored" });
    docs.set("file:///a/x.lwir.json", doc("file:///a/x.lwir.json", LWIR_JSON, "json"));
    assert.equal(workspace.getAnalysis("file:///a/x.lwir.json"), undefined);
    assert.equal(workspace.getState("file:///a/x.lwir.json")?.kind, "tooLarge");
  });

  test("a changed size limit re-classifies without re-analysing", () => {
    let settings: LwirSettings = DEFAULT_SETTINGS;
    const docs = new Map<string, TextDocument>();
    const workspace = new LwirWorkspace({ get: (uri) => docs.get(uri) }, () => settings);
    const uri = "file:///a/x.lwir.json";
    docs.set(uri, doc(uri, LWIR_JSON, "json"));
    const analysis = workspace.getAnalysis(uri);
    settings = { ...settings, maxFileSize: 10 };
    assert.equal(workspace.getState(uri)?.kind, "tooLarge");
    settings = DEFAULT_SETTINGS;
    assert.equal(workspace.getState(uri)?.kind, "lwir");
    assert.ok(workspace.getAnalysis(uri));
    assert.notEqual(analysis, undefined);
  });
});

describe("readSettings", () => {
  test("defaults", () => {
    assert.deepEqual(readSettings(undefined), {
      validation: { enable: true, delay: 150, scope: "workspace", maxFiles: 5000 },
      files: { include: [], exclude: [] },
      maxFileSize: 8388608,
      lint: { rules: {} },
      dryRun: { previewLens: true },
    });
    assert.deepEqual(readSettings(null), DEFAULT_SETTINGS);
  });

  test("nested, dotted and wrapped shapes", () => {
    const expected = { validation: { enable: false, delay: 0, scope: "workspace", maxFiles: 5000 }, files: { include: [], exclude: [] }, maxFileSize: 1000, lint: { rules: {} }, dryRun: { previewLens: true } };
    assert.deepEqual(readSettings({ validation: { enable: false, delay: 0 }, maxFileSize: 1000 }), expected);
    assert.deepEqual(readSettings({ "validation.enable": false, "validation.delay": 0, maxFileSize: 1000 }), expected);
    assert.deepEqual(readSettings({ lwir: { validation: { enable: false, delay: 0 }, maxFileSize: 1000 } }), expected);
    assert.deepEqual(readSettings({ "lwir.validation.enable": false, "lwir.validation.delay": 0, "lwir.maxFileSize": 1000 }), expected);
  });

  test("ill-typed values keep the base; missing values keep the base", () => {
    const base = {
      validation: { enable: false, delay: 10, scope: "openFiles" as const, maxFiles: 7 },
      files: { include: ["a/*.yaml"], exclude: ["b/**"] },
      maxFileSize: 5,
      lint: { rules: { "lwir.parse_warning": "off" as const } },
      dryRun: { previewLens: false },
    };
    const illTyped = { validation: { enable: "no", delay: -1, scope: "everything", maxFiles: "many" }, files: { include: "x", exclude: [1] }, maxFileSize: "big", lint: { rules: "all" }, dryRun: { previewLens: "yes" } };
    assert.deepEqual(readSettings(illTyped, base), base);
    assert.deepEqual(readSettings({ validation: { delay: 20 } }, base), { ...base, validation: { ...base.validation, delay: 20 } });
  });

  test("the workspace scan's settings: scope, maxFiles, files.include and files.exclude", () => {
    const read = readSettings({ validation: { scope: "openFiles", maxFiles: 12.7 }, "files.include": ["flows/*.yaml"], files: { exclude: ["gen/**"] } });
    assert.equal(read.validation.scope, "openFiles");
    assert.equal(read.validation.maxFiles, 12);
    assert.deepEqual(read.files, { include: ["flows/*.yaml"], exclude: ["gen/**"] });
  });

  test("lwir.lint.rules: our own codes with a known level are kept; anything else is dropped, never thrown on", () => {
    const raw = {
      "lwir.yaml_unquoted_template": "error",
      "lwir.parse_warning": "off",
      "lwir.file_too_large": "loud", // unknown level
      "model.disallowed": "off", // a runtime finding: not configurable
      "no.such_rule": "hint",
    };
    const want = { "lwir.yaml_unquoted_template": "error", "lwir.parse_warning": "off" };
    assert.deepEqual(readSettings({ lint: { rules: raw } }).lint.rules, want);
    assert.deepEqual(readSettings({ lwir: { lint: { rules: raw } } }).lint.rules, want);
    assert.deepEqual(readSettings({ "lwir.lint.rules": raw }).lint.rules, want);
    for (const odd of [null, 3, "x", ["lwir.parse_warning"]]) assert.deepEqual(readSettings({ lint: { rules: odd } }).lint.rules, {});
  });
});
