// Completion in a `.lwir.yaml` configuration file without any YAML extension (docs/configuration.md):
// the top-level keys, the rule codes under `rules:`, and the levels after a rule code. `.lwir.json` gets
// the same from VS Code's JSON support and schemas/lwir-config.schema.json. Pure, line-based: a
// configuration file is a few plain lines, and completion must also work while the line is unfinished.
import { CompletionItemKind, type CompletionItem } from "vscode-languageserver-types";
import { CONFIGURABLE_RULES, RULE_LEVELS } from "./rules";

const KEYS: ReadonlyArray<[string, string]> = [
  ["rules", "Levels of LWIR Tools' own rules: off, hint, info, warning or error (as lwir.lint.rules / --rule)."],
  ["ignore", "Glob patterns, relative to this file's folder, of files and folders that are not checked."],
  ["include", "More glob patterns, relative to this file's folder, of files to check (they must declare an LWIR apiVersion)."],
];

/** The completion items at a position of a `.lwir.yaml` text (line and UTF-16 character as LSP counts them). */
export function configCompletion(text: string, position: { line: number; character: number }): CompletionItem[] {
  const lines = text.split(/\r\n|\r|\n/);
  const line = lines[position.line] ?? "";
  const before = line.slice(0, position.character);
  const indent = /^\s*/.exec(before)![0].length;
  if (indent === 0) {
    if (before.includes(":")) return [];
    const present = new Set(lines.map((l) => /^([A-Za-z_]+)\s*:/.exec(l)?.[1]));
    return KEYS.filter(([key]) => !present.has(key) || before.trim() === key)
      .map(([key, documentation]) => ({ label: key, kind: CompletionItemKind.Property, insertText: `${key}:`, documentation }));
  }
  // Inside which top-level key? The nearest line above at column 0.
  let parent: string | undefined;
  for (let i = position.line - 1; i >= 0; i--) {
    const m = /^([^\s#][^:]*):/.exec(lines[i]);
    if (m) {
      parent = m[1].trim();
      break;
    }
  }
  if (parent !== "rules") return [];
  const valueAt = /^\s*([\w.]+)\s*:\s*\S*$/.exec(before);
  if (valueAt) {
    return RULE_LEVELS.map((level, i) => ({ label: level, kind: CompletionItemKind.EnumMember, sortText: String(i) }));
  }
  const set = new Set(lines.map((l) => /^\s+([\w.]+)\s*:/.exec(l)?.[1]));
  return CONFIGURABLE_RULES.filter((r) => !set.has(r.code) || before.trim() === r.code).map((r) => ({
    label: r.code,
    kind: CompletionItemKind.Property,
    insertText: `${r.code}: `,
    detail: `default: ${r.severity}`,
    documentation: r.description,
  }));
}
