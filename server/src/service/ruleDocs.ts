// Links from a diagnostic's code to its page in docs/rules/ (one page per code, in the repository).
// The base comes from package.json's `repository` at build time (scripts/build.mjs defines
// __LWIR_RULE_DOCS__); code run from source (the tests) uses the same base, written out below.
import type { Diagnostic } from "vscode-languageserver-types";
import { OWN_RULES, RULES } from "../lwir/codes";

declare const __LWIR_RULE_DOCS__: string | undefined;

/** docs/rules/ of package.json's repository; test/unit/rule-pages.test.ts checks the two agree. */
export const FALLBACK_RULE_DOCS_BASE = "https://example.invalid/lwir-tools/blob/HEAD/docs/rules/";

export const RULE_DOCS_BASE: string = typeof __LWIR_RULE_DOCS__ === "string" ? __LWIR_RULE_DOCS__ : FALLBACK_RULE_DOCS_BASE;

const DOCUMENTED: ReadonlySet<string> = new Set([...RULES.map(([code]) => code), ...OWN_RULES.map((r) => r.code)]);

/** The page of a code, or undefined for a code that has none (there should be none such). */
export function ruleDocsUrl(code: unknown): string | undefined {
  return typeof code === "string" && DOCUMENTED.has(code) ? `${RULE_DOCS_BASE}${code}.md` : undefined;
}

/** The diagnostics with `codeDescription.href` set to their page, for clients that declare support for it. */
export function withRuleLinks(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const href = ruleDocsUrl(d.code);
    return href === undefined ? d : { ...d, codeDescription: { href } };
  });
}
