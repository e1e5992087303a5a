// The configuration file in the language server (run `npm run build` first): the nearest .lwir.yaml /
// .lwir.json above a document sets its rule levels over the editor's settings, its `ignore` silences a
// file, a change on disk re-validates open documents, and an open configuration file gets its own problems.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LspClient, type Diagnostic } from "./harness";

const CODE = "lwir.yaml_unquoted_template";
const UNQUOTED = readFileSync("test/fixtures/cli/tree/valid.lwir.yaml", "utf8").replace('query: "{{ input.question }}"', "query: {{ input.question }}");
const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

const severityOf = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.code === CODE).map((d) => d.severity);

describe("the configuration file in the server", () => {
  let tmp: string;
  let flow: string;
  let configUri: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-lsp-config-"));
    mkdirSync(join(tmp, "flows"));
    writeFileSync(join(tmp, "flows", "a.lwir.yaml"), UNQUOTED);
    flow = pathToFileURL(join(tmp, "flows", "a.lwir.yaml")).href;
    configUri = pathToFileURL(join(tmp, ".lwir.yaml")).href;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test("push: the settings apply where there is no file; a file written beside changes the level; ignore silences", async () => {
    const client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 }, lint: { rules: { [CODE]: "hint" } } } } });
    try {
      client.open(flow, UNQUOTED);
      const first = await client.waitForDiagnostics(flow, { predicate: (d) => severityOf(d).length === 1 });
      assert.deepEqual(severityOf(first.diagnostics), [4], "the editor setting (hint) where no configuration file says otherwise");

      writeFileSync(join(tmp, ".lwir.yaml"), `rules:\n  ${CODE}: error\n`);
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: configUri, type: CREATED }] });
      const raised = await client.waitForDiagnostics(flow, { after: first.seq, predicate: (d) => severityOf(d)[0] === 1 });
      assert.deepEqual(severityOf(raised.diagnostics), [1], "the configuration file's level wins over the setting");

      writeFileSync(join(tmp, ".lwir.yaml"), "ignore:\n  - flows/**\n");
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: configUri, type: CHANGED }] });
      const ignored = await client.waitForDiagnostics(flow, { after: raised.seq, predicate: (d) => d.length === 0 });
      assert.deepEqual(ignored.diagnostics, []);

      rmSync(join(tmp, ".lwir.yaml"));
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: configUri, type: DELETED }] });
      const back = await client.waitForDiagnostics(flow, { after: ignored.seq, predicate: (d) => severityOf(d).length === 1 });
      assert.deepEqual(severityOf(back.diagnostics), [4], "without the file, the setting again");
    } finally {
      await client.stop();
    }
  });

  test("pull: the level of the configuration file, a new report after it changes", async () => {
    writeFileSync(join(tmp, ".lwir.json"), JSON.stringify({ rules: { [CODE]: "info" } }));
    const client = await LspClient.start({ pull: true, initializationOptions: { settings: { validation: { delay: 0 } } } });
    try {
      client.open(flow, UNQUOTED);
      const report = await client.pullDiagnostics(flow);
      assert.deepEqual(severityOf(report.items ?? []), [3]);
      writeFileSync(join(tmp, ".lwir.json"), JSON.stringify({ rules: { [CODE]: "off" } }));
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(join(tmp, ".lwir.json")).href, type: CHANGED }] });
      // The refresh request, or simply the next pull, sees the new level.
      let again = await client.pullDiagnostics(flow, report.resultId);
      for (let i = 0; i < 20 && again.kind !== "full"; i++) again = await client.pullDiagnostics(flow, report.resultId);
      assert.equal(again.kind, "full");
      assert.deepEqual(severityOf(again.items ?? []), []);
    } finally {
      await client.stop();
      rmSync(join(tmp, ".lwir.json"), { force: true });
    }
  });

  test("Fix all in file follows the configuration file's levels: a rule it turns off is left alone", async () => {
    const client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } });
    const fixAll = () => client.request<Array<{ kind: string; edit?: unknown }> | null>("textDocument/codeAction", {
      textDocument: { uri: flow },
      range: { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll.lwir"] },
    });
    try {
      client.open(flow, UNQUOTED);
      await client.waitForDiagnostics(flow, { predicate: (d) => severityOf(d).length === 1 });
      const fixes = (await fixAll()) ?? [];
      assert.equal(fixes.filter((a) => a.kind === "source.fixAll.lwir").length, 1, "the setting's level (on): the unquoted template is fixed");
      writeFileSync(join(tmp, ".lwir.yaml"), `rules:\n  ${CODE}: off\n`);
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: configUri, type: CREATED }] });
      await client.waitForDiagnostics(flow, { predicate: (d) => severityOf(d).length === 0 });
      assert.deepEqual(((await fixAll()) ?? []).filter((a) => a.kind === "source.fixAll.lwir"), [], "off in the configuration file: nothing to fix");
    } finally {
      await client.stop();
      rmSync(join(tmp, ".lwir.yaml"), { force: true });
    }
  });

  test("an open configuration file gets its own problems, and is never analysed as a workflow", async () => {
    const client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } });
    try {
      const text = `rules:\n  ${CODE}: loud\nignre: []\n`;
      client.open(configUri, text, "yaml");
      const published = await client.waitForDiagnostics(configUri, { predicate: (d) => d.length > 0 });
      assert.deepEqual(published.diagnostics.map((d) => [d.range.start.line, d.message]), [
        [1, `Unknown level "loud" for ${CODE}: off, hint, info, warning or error.`],
        [2, 'Unknown key "ignre": a configuration has rules, ignore and include.'],
      ]);
      assert.ok(published.diagnostics.every((d) => d.severity === 1 && d.source === "lwir"));
      // Fixed: the problems go.
      client.change(configUri, 2, [{ text: `rules:\n  ${CODE}: off\n  \n` }]);
      await client.waitForDiagnostics(configUri, { version: 2, predicate: (d) => d.length === 0 });
      // Completion of the rule codes not set yet, from our server alone.
      const reply = await client.reply("textDocument/completion", { textDocument: { uri: configUri }, position: { line: 2, character: 2 } });
      const items = (reply.result as { label: string }[] | { items: { label: string }[] });
      const labels = (Array.isArray(items) ? items : items.items).map((i) => i.label);
      assert.ok(labels.includes("lwir.parse_warning") && !labels.includes(CODE), labels.join());
    } finally {
      await client.stop();
    }
  });

  test("the workspace scan: closed files take the level of their configuration file, its ignore and its include", async () => {
    const root = mkdtempSync(join(tmpdir(), "lwir-lsp-config-ws-"));
    try {
      mkdirSync(join(root, "flows"));
      mkdirSync(join(root, "generated"));
      mkdirSync(join(root, "extra"));
      writeFileSync(join(root, "flows", "a.lwir.yaml"), UNQUOTED);
      writeFileSync(join(root, "generated", "g.lwir.yaml"), UNQUOTED);
      writeFileSync(join(root, "extra", "named-otherwise.yaml"), UNQUOTED);
      writeFileSync(join(root, ".lwir.yaml"), `rules:\n  ${CODE}: error\nignore: [generated/**]\ninclude: [extra/*.yaml]\n`);
      const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
      const client = await LspClient.start({
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: "ws" }],
        initializationOptions: { settings: { validation: { delay: 0, scope: "workspace" } } },
        capabilities: { window: { workDoneProgress: true }, workspace: { workspaceFolders: true } },
        timeout: 15000,
      });
      try {
        const flowReport = await client.waitForDiagnostics(uri("flows/a.lwir.yaml"), { predicate: (d) => d.length > 0 });
        assert.deepEqual(severityOf(flowReport.diagnostics), [1]);
        const extra = await client.waitForDiagnostics(uri("extra/named-otherwise.yaml"), { predicate: (d) => d.length > 0 });
        assert.deepEqual(severityOf(extra.diagnostics), [1], "listed through the configuration's include");
        await client.waitFor((m) => m.method === "$/progress" && m.params?.value?.kind === "end", "the scan to end");
        assert.deepEqual(client.publishedFor(uri("generated/g.lwir.yaml")), [], "ignored: never reported");
      } finally {
        await client.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
