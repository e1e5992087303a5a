// Protocol test of signature help: the built server (dist/server.js, run `npm run build` first) over
// stdio. The capability with its trigger characters, and the help while a call is typed into an open
// document (didChange, then textDocument/signatureHelp at once), in JSON and YAML.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { SignatureHelp } from "vscode-languageserver-types";
import { LspClient, cursor, fileUri } from "./harness";

type Format = "json" | "yaml";

function workflow(prompt: string): unknown {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "lsp-signature-help" },
    input: { schema: { type: "object", properties: { key: { type: "string" }, body: { type: "string" } } } },
    output: { schema: { type: "object" } },
    permissions: { models: ["gpt-4o-mini"] },
    steps: [{ id: "sign", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt }, output: { mode: "text" } }],
  };
}

const render = (doc: unknown, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 }));

describe("signature help over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  test("the server announces signature help on ( and ,", () => {
    const caps = client.initializeResult.capabilities;
    assert.deepEqual(caps.signatureHelpProvider?.triggerCharacters, ["(", ","]);
  });

  for (const format of ["json", "yaml"] as Format[]) {
    test(`typing a call of hmac: the signature and the active parameter (${format})`, async () => {
      const uri = fileUri(`signature.lwir.${format}`);
      const { text, position } = cursor(render(workflow("Sign {{ hmac(input.key, |) }}"), format));
      client.open(uri, text);
      const help = await client.request<SignatureHelp | null>("textDocument/signatureHelp", { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: ",", isRetrigger: false } });
      assert.ok(help, "a signature help");
      assert.equal(help.signatures[0].label, "hmac(key, value)");
      assert.equal(help.activeParameter, 1);
      // outside a call: none
      const outside = await client.request<SignatureHelp | null>("textDocument/signatureHelp", { textDocument: { uri }, position: { line: 0, character: 0 } });
      assert.equal(outside, null);
    });
  }
});
