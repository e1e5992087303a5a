// YAML.parse as the runtime calls it, without its console output: the yaml package warns (through
// process.emitWarning) each time it turns a collection used as a key into a string, which is what an
// unquoted `{{ … }}` in YAML is (`prompt: {{ input.x }}`). Its logLevel option turns that off; the value
// is the same. The server and the CLI read YAML with the same option (server/src/document/yaml.ts).
import { parse, type DocumentOptions, type ParseOptions, type SchemaOptions, type ToJSOptions } from "yaml";

export function parseYaml(text: string, options: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {}): unknown {
  return parse(text, { logLevel: "error", ...options }) as unknown;
}
