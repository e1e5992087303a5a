// Reading docs/rules/ for the tests: the pages, their header line and their examples, and the base URL
// the links to them should have (from package.json, the way scripts/build.mjs derives it).
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const RULES_DIR = join("docs", "rules");

export interface RuleExample {
  format: "json" | "yaml";
  /** Words after `lwir-example` in the fence's info string, as key=value pairs (`maxFileSize=200`). */
  settings: Record<string, string>;
  text: string;
  /** 1-based line of the fence in the page, for messages. */
  line: number;
}

export interface RulePage {
  code: string;
  file: string;
  text: string;
  title: string | undefined;
  severity: string | undefined;
  source: string | undefined;
  quickFix: string | undefined;
  examples: RuleExample[];
}

/** Every page but the index, by file name. */
export function readRulePages(): RulePage[] {
  return readdirSync(RULES_DIR)
    .filter((name) => name.endsWith(".md") && name !== "README.md")
    .sort()
    .map((name) => parseRulePage(name.slice(0, -3), join(RULES_DIR, name), readFileSync(join(RULES_DIR, name), "utf8")));
}

const HEADER = /^Severity: \*\*(\w+)\*\* · Source: \*\*([^*]+)\*\* · Quick fix: \*\*([^*]+)\*\*$/m;
const EXAMPLE = /^```(json|yaml) lwir-example([^\n]*)\n([\s\S]*?)^```$/gm;

export function parseRulePage(code: string, file: string, text: string): RulePage {
  const header = HEADER.exec(text);
  const examples: RuleExample[] = [];
  for (const m of text.matchAll(EXAMPLE)) {
    const settings: Record<string, string> = {};
    for (const word of m[2].trim().split(/\s+/).filter(Boolean)) {
      const [key, value = ""] = word.split("=");
      settings[key] = value;
    }
    examples.push({ format: m[1] as "json" | "yaml", settings, text: m[3], line: text.slice(0, m.index).split("\n").length });
  }
  return {
    code, file, text,
    title: /^# `([^`]+)`$/m.exec(text)?.[1],
    severity: header?.[1], source: header?.[2], quickFix: header?.[3],
    examples,
  };
}

/** The rule pages beside the Node server (docs/rules/ of this checkout, as a file: URL): where links go by default. */
export function expectedRuleDocsBase(): string {
  return `${pathToFileURL(resolve("docs", "rules")).href}/`;
}
