// Links from a diagnostic's code (and its hover) to its page in docs/rules/ (one page per code). Nothing may
// depend on a public home the project does not have: the pages ship with the extension (docs/rules/ beside
// dist/), and the base of the links is, in order: what the client asks for (`initializationOptions.ruleDocsBase`,
// e.g. VS Code's `lwir-rule:` pages that open in the Markdown preview), the pages beside the Node server
// (a file: URL), or the public repository's pages when package.json's `repository` names one (scripts/build.mjs
// defines __LWIR_RULE_DOCS__ from it; empty while there is none). With no base there is no link.
import type { Diagnostic } from "vscode-languageserver-types";
import { OWN_RULES, RULES } from "../lwir/codes";

declare const __LWIR_RULE_DOCS__: string | undefined;

/** docs/rules/ of the public repository, derived from package.json's `repository` at build time; none today. */
export const PUBLIC_RULE_DOCS_BASE: string | undefined =
  typeof __LWIR_RULE_DOCS__ === "string" && __LWIR_RULE_DOCS__ !== "" ? __LWIR_RULE_DOCS__ : undefined;

let base: string | undefined = PUBLIC_RULE_DOCS_BASE;

/** Sets where the pages are (a URI ending in `/`); undefined goes back to the public pages, if any. */
export function setRuleDocsBase(value: string | undefined): void {
  base = value === undefined || value === "" ? PUBLIC_RULE_DOCS_BASE : value.endsWith("/") ? value : `${value}/`;
}

export function ruleDocsBase(): string | undefined {
  return base;
}

const DOCUMENTED: ReadonlySet<string> = new Set([...RULES.map(([code]) => code), ...OWN_RULES.map((r) => r.code)]);

/** Whether docs/rules has a page for this code. */
export function hasRulePage(code: unknown): code is string {
  return typeof code === "string" && DOCUMENTED.has(code);
}

/** The page of a code, or undefined for a code that has none or when no base is known. */
export function ruleDocsUrl(code: unknown, at: string | undefined = base): string | undefined {
  return at !== undefined && hasRulePage(code) ? `${at}${code}.md` : undefined;
}

/** The diagnostics with `codeDescription.href` set to their page, for clients that declare support for it. */
export function withRuleLinks(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const href = ruleDocsUrl(d.code);
    return href === undefined ? d : { ...d, codeDescription: { href } };
  });
}
