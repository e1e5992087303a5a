// Entry point of the document layer: text + format → LwirDocument (value, parse problems, path ⇄ range).
import { JsonDocument, parseJson } from "./json";
import { parseYaml, YamlDocument } from "./yaml";
import { parseFastYamlDocument } from "./yaml-fast";
import type { Format, LwirDocument } from "./types";

export { computeLineStarts, displaySpan, endOfLine, offsetIn, positionIn } from "./text";
export { MAX_JSON_DEPTH, MAX_YAML_DEPTH } from "./depth";
export type { Format, LwirDocument, NodeLocation, ParseProblem, PathAt, Position, Range } from "./types";

/** Parses text as LWIR JSON or YAML. Never throws: problems become parse errors. */
export function parseDocument(text: string, format: Format): LwirDocument {
  try {
    // YAML: the fast reader when the text is in the subset it reads exactly (same value, same ranges), else `yaml`
    return format === "json" ? parseJson(text) : parseFastYamlDocument(text) ?? parseYaml(text);
  } catch (error) {
    // a last guard (no input is known to get here): a document that does not parse, instead of a crash
    const message = `The document could not be read: ${error instanceof Error ? error.message : String(error)}`;
    if (format === "json") {
      const doc = new JsonDocument(text, undefined, undefined);
      doc.addNativeError(message);
      return doc;
    }
    const doc = new YamlDocument(text, undefined);
    doc.report("errors", message, 0, 1, "INTERNAL");
    return doc;
  }
}

/** The format a file name implies: `.json` (`.lwir.json`) → json, `.yaml`/`.yml` (`.lwir.yaml`…) → yaml. */
export function formatOf(fileName: string): Format | undefined {
  const name = fileName.toLowerCase();
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  return undefined;
}
