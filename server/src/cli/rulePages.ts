// The pages of docs/: each rule's page (docs/rules/CODE.md) and the authoring reference for agents
// (docs/lwir-reference.md), put in the CLI's bundle by the build (scripts/bundle.mjs, defines()), so SARIF's help
// and `lwir mcp` need no file beside the bundle. The language server's bundle and code run from source (the
// tests) read them from docs/.
import { readFileSync } from "node:fs";
import { join } from "node:path";

declare const __LWIR_RULE_PAGES__: Record<string, string> | undefined;
declare const __LWIR_REFERENCE__: string | undefined;

/** The rule page of a code, or undefined for a code that has none. */
export function rulePage(code: string): string | undefined {
  if (typeof __LWIR_RULE_PAGES__ === "object") return Object.hasOwn(__LWIR_RULE_PAGES__, code) ? __LWIR_RULE_PAGES__[code] : undefined;
  if (!/^[\w.]+$/.test(code)) return undefined;
  return readDoc(join("rules", `${code}.md`));
}

/** docs/lwir-reference.md: LWIR on one page, for an agent to read before it writes a workflow. */
export function authoringReference(): string {
  if (typeof __LWIR_REFERENCE__ === "string") return __LWIR_REFERENCE__;
  return readDoc("lwir-reference.md") ?? "";
}

/** docs/NAME beside the bundle's dist/ (the extension's folder, a clone), else in the working folder (the tests). */
function readDoc(name: string): string | undefined {
  for (const folder of [join(__dirname, "..", "docs"), "docs"]) {
    try {
      return readFileSync(join(folder, name), "utf8");
    } catch {
      // not there
    }
  }
  return undefined;
}
