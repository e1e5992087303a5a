// Stands in for the SDK's Ajv-based JSON Schema validator (@modelcontextprotocol/sdk's validation/ajv-provider.js)
// in our bundles (scripts/bundle.mjs, `noSchemaCompiler`). The SDK's server uses it only on what a client answers
// to an elicitation request, which lwir mcp never sends; and Ajv compiles each schema into code with
// `new Function`, which the server and the CLI never do (test/robust/safety.test.ts).
export class AjvJsonSchemaValidator {
  getValidator(): never {
    throw new Error("lwir mcp checks no JSON Schema sent by a client");
  }
}
