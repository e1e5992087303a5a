// Where a `lwir-rule:` link's page is in the extension's folder (no `vscode` import: test/unit runs it).
// The Markdown preview resolves a page's relative links against its `lwir-rule:/CODE.md` URI, so
// `../type-checks.md` from a rule page becomes `lwir-rule:/type-checks.md` (a URI has nothing above its
// root) and `rules/CODE.md` from type-checks.md becomes `lwir-rule:/rules/CODE.md`.

/** The files, relative to the extension's folder, that may hold the page of `path`, first match wins; undefined for anything else. */
export function rulePageCandidates(path: string): string[] | undefined {
  const name = path.replace(/^\/+/, "").replace(/^rules\//, "");
  if (!/^[\w.-]+\.md$/.test(name) || name.startsWith(".")) return undefined;
  return [`docs/rules/${name}`, `docs/${name}`];
}

/** The command hovers' rule-page links run (VS Code's hover drops links of a scheme it does not know). */
export const OPEN_RULE_PAGE_COMMAND = "lwir.openRulePage";

/**
 * Markdown whose `lwir-rule:` links become links to OPEN_RULE_PAGE_COMMAND with the page's URI; undefined
 * when there is none (the text is shown as it is).
 */
export function ruleLinksAsCommands(markdown: string, scheme: string): string | undefined {
  let changed = false;
  const out = markdown.replace(new RegExp(`\\]\\((${scheme}:[^)\\s]+)\\)`, "g"), (_, uri: string) => {
    changed = true;
    return `](command:${OPEN_RULE_PAGE_COMMAND}?${encodeURIComponent(JSON.stringify([uri]))})`;
  });
  return changed ? out : undefined;
}
