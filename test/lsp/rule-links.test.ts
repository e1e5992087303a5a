// Links to docs/rules over the protocol (the built server): `codeDescription.href` on every diagnostic
// when the client declares it can show one, nothing extra when it does not; the hover on a squiggle
// links to the same page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { LspClient, fileUri, type Diagnostic, type StartOptions } from "./harness";
import { expectedRuleDocsBase } from "../rule-docs";

const settings = (extra: Record<string, unknown> = {}) => ({ initializationOptions: { settings: { validation: { delay: 0 }, ...extra } } });

/** A finding of the runtime (model.disallowed) and a warning of ours (the unquoted template). */
const YAML_DOC = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: links}
input:
  schema: {type: object}
output:
  schema: {type: object}
permissions:
  models: [gpt-4o-mini]
steps:
  - id: draft
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: {{ input.topic }}
    output: {mode: text}
`;
const BROKEN_JSON = '{"apiVersion": "littleworkflow.dev/v0.1",';

async function withClient(options: StartOptions, run: (client: LspClient) => Promise<void>): Promise<void> {
  const client = await LspClient.start(options);
  try {
    await run(client);
  } finally {
    await client.stop();
  }
}

async function pushed(client: LspClient, name: string, text: string): Promise<Diagnostic[]> {
  const uri = fileUri(name);
  client.open(uri, text);
  return (await client.waitForDiagnostics(uri, { version: 1 })).diagnostics;
}

function assertLinked(diagnostics: Diagnostic[], codes: string[]): void {
  assert.deepEqual(diagnostics.map((d) => String(d.code)).sort(), [...codes].sort());
  for (const d of diagnostics) {
    assert.deepEqual(d.codeDescription, { href: `${expectedRuleDocsBase()}${String(d.code)}.md` });
    assert.ok(existsSync(`docs/rules/${String(d.code)}.md`), String(d.code));
  }
}

function assertNotLinked(diagnostics: Diagnostic[], codes: string[]): void {
  assert.deepEqual(diagnostics.map((d) => String(d.code)).sort(), [...codes].sort());
  for (const d of diagnostics) assert.equal(d.codeDescription, undefined, String(d.code));
}

describe("codeDescription: a link to the rule's page", () => {
  test("push, client declares codeDescriptionSupport: findings, our warnings, parse errors and the size notice link to their pages", async () => {
    await withClient(settings(), async (client) => {
      assertLinked(await pushed(client, "links.lwir.yaml", YAML_DOC), ["model.disallowed", "lwir.yaml_unquoted_template"]);
      assertLinked(await pushed(client, "broken.lwir.json", BROKEN_JSON), ["parse"]);
    });
    await withClient(settings({ maxFileSize: 100 }), async (client) => {
      assertLinked(await pushed(client, "big.lwir.yaml", YAML_DOC), ["lwir.file_too_large"]);
    });
  });

  test("push, client without codeDescriptionSupport: no codeDescription", async () => {
    await withClient({ ...settings(), capabilities: { textDocument: { publishDiagnostics: { codeDescriptionSupport: false } } } }, async (client) => {
      assertNotLinked(await pushed(client, "links.lwir.yaml", YAML_DOC), ["model.disallowed", "lwir.yaml_unquoted_template"]);
      assertNotLinked(await pushed(client, "broken.lwir.json", BROKEN_JSON), ["parse"]);
    });
  });

  test("pull: the diagnostic capability's own codeDescriptionSupport decides", async () => {
    const pull = (support: boolean): StartOptions => ({
      pull: true, ...settings(),
      // pushed diagnostics declared the other way, to show which capability is read
      capabilities: { textDocument: { diagnostic: { codeDescriptionSupport: support }, publishDiagnostics: { codeDescriptionSupport: !support } } },
    });
    await withClient(pull(true), async (client) => {
      const uri = fileUri("pull.lwir.yaml");
      client.open(uri, YAML_DOC);
      assertLinked((await client.pullDiagnostics(uri)).items!, ["model.disallowed", "lwir.yaml_unquoted_template"]);
    });
    await withClient(pull(false), async (client) => {
      const uri = fileUri("pull.lwir.yaml");
      client.open(uri, YAML_DOC);
      assertNotLinked((await client.pullDiagnostics(uri)).items!, ["model.disallowed", "lwir.yaml_unquoted_template"]);
    });
  });

  test("pull, a 3.17 client that declares it for pushed diagnostics only: linked", async () => {
    await withClient({ pull: true, ...settings() }, async (client) => {
      const uri = fileUri("pull317.lwir.yaml");
      client.open(uri, YAML_DOC);
      assertLinked((await client.pullDiagnostics(uri)).items!, ["model.disallowed", "lwir.yaml_unquoted_template"]);
    });
  });
});

describe("the client names where the pages are (initializationOptions.ruleDocsBase)", () => {
  test("VS Code's lwir-rule: pages: links and hovers use them", async () => {
    const options = { initializationOptions: { ruleDocsBase: "lwir-rule:/", settings: { validation: { delay: 0 } } } };
    await withClient(options, async (client) => {
      const diagnostics = await pushed(client, "base.lwir.yaml", YAML_DOC);
      assert.deepEqual(diagnostics.map((d) => d.codeDescription?.href).sort(), ["lwir-rule:/lwir.yaml_unquoted_template.md", "lwir-rule:/model.disallowed.md"]);
      const finding = diagnostics.find((d) => d.code === "model.disallowed")!;
      const hover = await client.request("textDocument/hover", { textDocument: { uri: fileUri("base.lwir.yaml") }, position: finding.range.start });
      assert.ok((hover.contents as { value: string }).value.includes("](lwir-rule:/model.disallowed.md)"));
    });
  });
});

describe("hover on a squiggle", () => {
  test("links to the rule's page", async () => {
    await withClient(settings(), async (client) => {
      const uri = fileUri("hover.lwir.yaml");
      const [finding] = (await pushed(client, "hover.lwir.yaml", YAML_DOC)).filter((d) => d.code === "model.disallowed");
      const hover = await client.request("textDocument/hover", { textDocument: { uri }, position: finding.range.start });
      const value = (hover.contents as { value: string }).value;
      assert.ok(value.includes(`](${expectedRuleDocsBase()}model.disallowed.md)`), value);
      assert.doesNotMatch(value, /catalog/i);
    });
  });
});
