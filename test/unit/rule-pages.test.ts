// docs/rules/: one page per code (the runtime's RULES and our OWN_RULES), each example on a page checked
// with the code the editor and the CLI run, and the links that point at the pages.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import type { Diagnostic } from "vscode-languageserver-types";
import { OWN_RULES, PARSE_RULE, RULES } from "../../server/src/lwir/codes";
import { INVALID_UTF8, NUL_BYTE } from "../../server/src/service/sourceBytes";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import {
  EMPTY_DOCUMENT, FILE_TOO_LARGE, INTERNAL_ERROR, PARSE_CODE, PARSE_WARNING_CODE, YAML_UNQUOTED_TEMPLATE,
  internalErrorDiagnostic, toDiagnostics, tooLargeDiagnostic,
} from "../../server/src/service/diagnostics";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { classifyDocument } from "../../server/src/service/workspace";
import { PUBLIC_RULE_DOCS_BASE, ruleDocsBase, ruleDocsUrl, setRuleDocsBase, withRuleLinks } from "../../server/src/service/ruleDocs";
import { CONFIGURABLE_RULES, RULE_LEVELS } from "../../server/src/service/rules";
import { checkFile, isFailure } from "../../server/src/cli/check";
import { RULES_DIR, expectedRuleDocsBase, readRulePages, type RuleExample, type RulePage } from "../rule-docs";

const RUNTIME_CODES = RULES.map(([code]) => code);
const OWN_CODES = OWN_RULES.map((r) => r.code);
const ALL_CODES = [...RUNTIME_CODES, ...OWN_CODES];
const SEVERITY = new Map<string, string>([...RUNTIME_CODES.map((c) => [c, "error"] as const), ...OWN_RULES.map((r) => [r.code, r.severity] as const)]);

/** The documented exceptions to "an example in JSON and one in YAML": which formats the page has instead. */
const EXAMPLE_FORMATS: Record<string, string[]> = {
  // Nothing is meant to trigger it: a document that does is a bug of the tool.
  [INTERNAL_ERROR]: [],
  // Only YAML has parser warnings and unquoted-template ambiguity.
  [PARSE_WARNING_CODE]: ["yaml"],
  [YAML_UNQUOTED_TEMPLATE]: ["yaml"],
  // About bytes a Markdown page cannot hold (bytes that are not UTF-8, NUL): described in words and hex instead.
  [INVALID_UTF8]: [],
  [NUL_BYTE]: [],
  // About scenarios files beside a workflow: their examples are checked in scenario-rule-pages.test.ts.
  ...Object.fromEntries(OWN_CODES.filter((c) => c.startsWith("lwir.scenario_")).map((c) => [c, []])),
};

const pages = readRulePages();
const byCode = new Map(pages.map((p) => [p.code, p]));

const work = mkdtempSync(join(tmpdir(), "lwir-rule-pages-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** What the editor shows for an example (service/workspace.ts decides "too large" before any analysis). */
function editorDiagnostics(example: RuleExample): { diagnostics: Diagnostic[]; analysis?: Analysis } {
  const maxFileSize = example.settings.maxFileSize;
  if (maxFileSize !== undefined) {
    const state = classifyDocument({ uri: `file:///example.lwir.${example.format}`, languageId: example.format, version: 1, getText: () => example.text }, Number(maxFileSize));
    if (state.kind === "tooLarge") return { diagnostics: [tooLargeDiagnostic(state.size, state.limit)] };
  }
  const analysis = analyzeText(example.text, example.format);
  return { diagnostics: toDiagnostics(analysis), analysis };
}

/** What `lwir validate` reports for an example, from a real file. */
function cliReport(page: RulePage, example: RuleExample) {
  const file = join(work, `${page.code}-${example.line}.lwir.${example.format}`);
  writeFileSync(file, example.text);
  const report = checkFile(file);
  assert.ok(!isFailure(report), `${file}: ${JSON.stringify(report)}`);
  return report;
}

const where = (page: RulePage, example: RuleExample) => `${page.file}:${example.line} (${example.format})`;
const codesOf = (diagnostics: Diagnostic[]) => [...new Set(diagnostics.map((d) => String(d.code)))].sort();

describe("docs/rules: one page per code", () => {
  test("the code lists: 61 codes of the runtime, our own codes apart from them, no code twice", () => {
    assert.equal(new Set(RUNTIME_CODES).size, 61);
    assert.equal(new Set(ALL_CODES).size, ALL_CODES.length);
    // Every code diagnostics.ts can produce is in OWN_RULES.
    for (const code of [PARSE_CODE, PARSE_WARNING_CODE, YAML_UNQUOTED_TEMPLATE, EMPTY_DOCUMENT, FILE_TOO_LARGE, INTERNAL_ERROR, PARSE_RULE]) {
      assert.ok(OWN_CODES.includes(code), code);
    }
    assert.ok(OWN_CODES.includes("lwir.inherited_function_name"));
    for (const r of OWN_RULES) assert.ok(r.description.length > 0 && !r.description.includes("\n"), r.code);
  });

  test("every code has exactly one page, and every page is named after a known code", () => {
    assert.deepEqual(pages.map((p) => p.code).sort(), [...ALL_CODES].sort());
  });

  test("each page: its code as the title, the header line, and the sections users look for", () => {
    for (const page of pages) {
      assert.equal(page.title, page.code, `${page.file}: title`);
      assert.equal(page.severity, SEVERITY.get(page.code), `${page.file}: severity`);
      assert.equal(page.source, RUNTIME_CODES.includes(page.code) ? "runtime" : "LWIR Tools", `${page.file}: source`);
      assert.ok(["yes", "no", "in some cases"].includes(page.quickFix ?? ""), `${page.file}: quick fix "${page.quickFix}"`);
      for (const section of ["What it means", "Where it is reported", "Example", "How to fix", "Quick fix"]) {
        assert.match(page.text, new RegExp(`^## ${section}$`, "m"), `${page.file}: section ${section}`);
      }
      // Our own warnings say how to turn them off (lwir.lint.rules, --rule).
      const own = OWN_RULES.find((r) => r.code === page.code);
      if (own && own.severity !== "error") {
        assert.match(page.text, /^## Turning it off$/m, page.file);
        assert.ok(page.text.includes(`"lwir.lint.rules": { "${page.code}": "off" }`), page.file);
        // (the CLI checks any size, so it never reports lwir.file_too_large)
        if (page.code !== FILE_TOO_LARGE) assert.ok(page.text.includes(`--rule ${page.code}=off`), page.file);
      }
      assert.doesNotMatch(page.text, /catalog|\.\.\/shared/i, `${page.file}: refers users to material they do not have`);
    }
  });

  test("examples: one in JSON and one in YAML, except the documented exceptions", () => {
    for (const page of pages) {
      const formats = [...new Set(page.examples.map((e) => e.format))].sort();
      assert.deepEqual(formats, EXAMPLE_FORMATS[page.code] ?? ["json", "yaml"], page.file);
    }
    assert.match(byCode.get(INTERNAL_ERROR)!.text, /has no example/);
  });
});

describe("docs/rules: each page quotes the message as the editor now writes it", () => {
  const QUOTE = /^What the editor says about the (JSON|YAML) example:\n\n```text lwir-message\n([\s\S]*?)\n```$/gm;
  for (const page of pages) {
    if (page.examples.length === 0) continue;
    test(page.code, () => {
      const quotes = [...page.text.matchAll(QUOTE)];
      assert.equal(quotes.length, 1, `${page.file}: one quoted message (a \`text lwir-message\` block)`);
      const [, format, quoted] = quotes[0];
      const example = page.examples.find((e) => e.format === format.toLowerCase())!;
      assert.ok(example, `${page.file}: the quoted message is about its ${format} example`);
      const diagnostic = editorDiagnostics(example).diagnostics.find((d) => d.code === page.code);
      const now = diagnostic && (typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value);
      assert.equal(quoted, now, `${page.file}: the quoted message is not the one the editor writes now`);
    });
  }
});

describe("docs/rules: every example produces exactly its page's code", () => {
  for (const page of pages) {
    if (page.examples.length === 0) continue;
    test(page.code, () => {
      const runtime = RUNTIME_CODES.includes(page.code);
      let fixedSome = false;
      for (const example of page.examples) {
        const at = where(page, example);
        // the editor: the set of codes of its diagnostics is {code}
        const { diagnostics, analysis } = editorDiagnostics(example);
        assert.deepEqual(codesOf(diagnostics), [page.code], at);
        // the CLI: a finding of the runtime is a finding; a parse error is a parse error; our own
        // warnings are never findings (the runtime accepts those documents)
        const report = cliReport(page, example);
        if (runtime) {
          assert.deepEqual([...new Set(report.findings.map((f) => f.code))], [page.code], at);
          assert.deepEqual(report.parseErrors, [], at);
          assert.equal(report.valid, false, at);
        } else if (page.code === EMPTY_DOCUMENT) {
          // the editor's notice replaces what the CLI (and the runtime) report for an empty file: null is
          // not an object (YAML), no JSON text, or the missing top-level keys of `{}`
          const text = example.text.trim();
          if (text === "") {
            if (example.format === "yaml") assert.deepEqual(report.findings.map((f) => `${f.code} ${f.path}`), ["schema.invalid $"], at);
            else assert.ok(report.parseErrors.length > 0 && report.findings.length === 0, at);
          } else {
            assert.deepEqual(report.parseErrors, [], at);
            assert.ok(report.findings.length > 0 && report.findings.every((f) => f.code === "schema.invalid"), at);
          }
          assert.equal(report.valid, false, at);
        } else if (page.code === PARSE_CODE) {
          assert.ok(report.parseErrors.length > 0, at);
          assert.deepEqual(report.findings, [], at);
        } else {
          assert.deepEqual(report.findings, [], at);
          assert.deepEqual(report.parseErrors, [], at);
          assert.equal(report.valid, true, at);
        }
        // the quick fix the page promises (or says there is none)
        if (!analysis) {
          assert.equal(page.quickFix, "no", at);
          continue;
        }
        const ours = diagnostics.filter((d) => d.code === page.code);
        const fixes = provideCodeActions(analysis, {
          textDocument: { uri: "file:///example" },
          range: ours[0].range,
          context: { diagnostics: ours, only: ["quickfix"] },
        });
        if (page.quickFix === "no") assert.deepEqual(fixes.map((f) => f.title), [], at);
        // "in some cases": not every example need have one (a JSON syntax error has none)
        else if (page.quickFix === "yes") assert.ok(fixes.length > 0, `${at}: the page promises a quick fix`);
        fixedSome ||= fixes.length > 0;
      }
      if (page.quickFix === "in some cases") assert.ok(fixedSome, `${page.file}: an example shows a case with a quick fix`);
    });
  }
});

describe("docs/rules/README.md: the index", () => {
  const index = readFileSync(join(RULES_DIR, "README.md"), "utf8");
  const rows = [...index.matchAll(/^\| \[`([^`]+)`\]\(([^)]+)\) \| (\w+) \| (.+) \| ([^|]+) \|$/gm)];

  test("lists every code once, linked to its page, with its severity and quick fix", () => {
    assert.deepEqual(rows.map((r) => r[1]).sort(), [...ALL_CODES].sort());
    for (const [, code, link, severity, , quickFix] of rows) {
      assert.equal(link, `${code}.md`);
      assert.ok(existsSync(join(RULES_DIR, link)), link);
      assert.equal(severity, SEVERITY.get(code), code);
      assert.equal(quickFix.trim(), byCode.get(code)!.quickFix, code);
    }
  });

  test("explains paths and how to turn our own warnings off", () => {
    assert.match(index, /^## Paths$/m);
    assert.ok(index.includes("lwir.lint.rules") && index.includes("--rule"));
    assert.doesNotMatch(index, /catalog|\.\.\/shared/i);
  });
});

describe("links to the pages", () => {
  test("no public home: no link by default from source, the pages a client or the Node server names otherwise", () => {
    // package.json names no repository (nothing shipped may depend on a host the project does not have)
    assert.equal((JSON.parse(readFileSync("package.json", "utf8")) as { repository?: unknown }).repository, undefined);
    assert.equal(PUBLIC_RULE_DOCS_BASE, undefined);
    setRuleDocsBase(undefined);
    assert.equal(ruleDocsBase(), undefined);
    assert.equal(ruleDocsUrl("model.disallowed"), undefined);
    setRuleDocsBase("lwir-rule:");
    assert.equal(ruleDocsUrl("model.disallowed"), "lwir-rule:/model.disallowed.md");
    setRuleDocsBase(expectedRuleDocsBase());
    assert.equal(ruleDocsBase(), expectedRuleDocsBase());
  });

  test("the build derives the public links from package.json's repository, and only from it", async () => {
    const { publicHome } = (await import(pathToFileURL(join(process.cwd(), "scripts", "bundle.mjs")).href)) as { publicHome(m: object): string };
    assert.equal(publicHome({}), "");
    assert.equal(publicHome({ repository: { type: "git", url: "git+https://git.example.org/team/lwir-tools.git" } }), "https://git.example.org/team/lwir-tools");
    assert.equal(publicHome({ repository: "https://git.example.org/team/lwir-tools" }), "https://git.example.org/team/lwir-tools");
  });

  test("every code links to its own page; unknown codes link nowhere", () => {
    setRuleDocsBase(expectedRuleDocsBase());
    for (const code of ALL_CODES) {
      const href = ruleDocsUrl(code)!;
      assert.equal(href, `${expectedRuleDocsBase()}${code}.md`);
      assert.ok(existsSync(new URL(href)), href);
    }
    assert.equal(ruleDocsUrl("no.such_code"), undefined);
    assert.equal(ruleDocsUrl(42), undefined);
  });

  test("withRuleLinks sets codeDescription.href on each diagnostic, without changing the input", () => {
    const analysis = analyzeText('{"apiVersion": "littleworkflow.dev/v1", "kind": "Workflow"}', "json");
    const plain = [...toDiagnostics(analysis), tooLargeDiagnostic(10, 5), internalErrorDiagnostic(new Error("boom"))];
    setRuleDocsBase(expectedRuleDocsBase());
    const linked = withRuleLinks(plain);
    assert.equal(linked.length, plain.length);
    assert.ok(plain.length > 3);
    linked.forEach((d, i) => {
      assert.equal(plain[i].codeDescription, undefined);
      assert.deepEqual(d.codeDescription, { href: `${expectedRuleDocsBase()}${String(d.code)}.md` });
      assert.deepEqual({ ...d, codeDescription: undefined }, { ...plain[i], codeDescription: undefined });
    });
    const stranger: Diagnostic = { range: plain[0].range, message: "x", code: "other.code" };
    assert.deepEqual(withRuleLinks([stranger]), [stranger]);
  });
});

test("package.json's lwir.lint.rules lists exactly the configurable rules, each with its default level", () => {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), "package.json"), "utf8"));
  const props = manifest.contributes.configuration.properties["lwir.lint.rules"].properties as Record<string, { default: string; enum: string[] }>;
  assert.deepEqual(Object.keys(props).sort(), CONFIGURABLE_RULES.map((r) => r.code).sort());
  for (const r of CONFIGURABLE_RULES) {
    assert.equal(props[r.code].default, r.severity, r.code);
    assert.deepEqual(props[r.code].enum, [...RULE_LEVELS], r.code);
  }
});
