// The checks: the packaged extension in the real VS Code workbench (code-server), driven like a user
// with playwright-core and Debian's Chromium. What the editor shows is compared with what the CLI
// (`lwir validate --format json`, the same analysis) reports for the same file, read from the workspace
// copy at that moment. Every wait is on UI state (a selector, a status bar text, a file on disk).
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml } from "yaml";
import { spawnSync } from "node:child_process";
import { CLI, cliReport } from "../lib.mjs";
import { GIF_NAME, authoringChecks } from "./authoring.mjs";
import { GRAPH_SCREENSHOT, graphChecks } from "./graph.mjs";
import { graphEditChecks } from "./graph-edit.mjs";
import { quietChecks } from "./quiet.mjs";
import { fixesChecks } from "./fixes.mjs";
import { completingChecks } from "./completing.mjs";
import { LWIR_STATUS, NEUTRAL, Workbench, escapeRe, problemRows, suggestLabels } from "./workbench.mjs";
import { messagesChecks } from "./messages.mjs";
import { workspaceChecks } from "./workspace.mjs";
import { testingChecks } from "./testing.mjs";
import { dryRunChecks, placeDryRunFiles } from "./dryrun.mjs";
import { lmToolsChecks } from "./lm-tools.mjs";

const BROKEN = "broken-review.lwir.yaml";
const VALID = "release-notes.lwir.json";
const NESTED = "support-triage.lwir.yaml";
const NEW_ID = "critique";
/** Written into the workspace by the JSON checks: a missing comma, and an empty LWIR JSON file to type into. */
const SYNTAX_ERROR = "syntax-error.lwir.json";
const EMPTY_JSON = "typing.lwir.json";

/** The screenshots a passing run produces (copied to docs/images with --screenshots). */
export const SCREENSHOT_NAMES = [
  "squiggles.png", "hover-problem.png", "hover-step.png", "quick-fix.png", "rename.png",
  "suggest.png", "workflow-version.png", "canonical-json.png", "outline.png", GRAPH_SCREENSHOT, GIF_NAME,
];

const json = (v) => JSON.stringify(v);

/** What the Problems panel must list for a file: its CLI findings (and parse errors) as panel rows. */
function expectedRows(fileReport) {
  const rows = [
    // a syntax error's code in the editor is "parse" (diagnostics.ts PARSE_CODE); the CLI's report has none
    ...fileReport.parseErrors.map((p) => ({ message: p.message, source: "lwir", code: "parse", line: p.range.start.line + 1, col: p.range.start.character + 1 })),
    ...fileReport.findings.map((f) => ({ message: f.message, source: "lwir", code: f.code, line: f.range.start.line + 1, col: f.range.start.character + 1 })),
  ];
  return rows.sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
}

/** 1-based line/column of `word` on the last line (or the first, with first=true) matching `lineRe`. */
function locate(text, lineRe, word, { first = false } = {}) {
  const lines = text.split("\n");
  const indexes = lines.map((l, i) => (lineRe.test(l) ? i : -1)).filter((i) => i >= 0);
  if (indexes.length === 0) throw new Error(`no line matches ${lineRe}`);
  const i = first ? indexes[0] : indexes[indexes.length - 1];
  const c = lines[i].indexOf(word);
  if (c < 0) throw new Error(`${json(word)} is not on line ${i + 1}: ${lines[i]}`);
  return { line: i + 1, col: c + 1, endCol: c + 1 + word.length };
}

/** Waits until an in-page predicate (problemRows, suggestLabels) holds for `expected`; else says what it saw. */
async function waitForEqual(page, fn, expected, what, timeout) {
  try {
    await page.waitForFunction(fn, expected, { timeout });
  } catch (e) {
    const actual = await page.evaluate(fn).catch(() => "(page gone)");
    throw new Error(`${what}\n  expected ${json(expected)}\n  got      ${json(actual)}\n  (${e.message.split("\n")[0]})`);
  }
}

/** Polls the disk (the editor saves asynchronously) until `test(text)` holds. */
async function waitForFile(file, test, what, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = readFileSync(file, "utf8");
    if (test(text)) return text;
    if (Date.now() > until) throw new Error(`${what}: not on disk after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs every check in order on one page. `run(name, fn)` records a check (and screenshots a failure).
 * Later checks do not assume earlier ones passed: each opens its file and reads what it expects from
 * the workspace copy as it is then.
 */
export async function driveChecks({ page, url, workspace, run, screenshots }) {
  const wb = new Workbench(page, screenshots);
  const file = (name) => join(workspace, name);
  const read = (name) => readFileSync(file(name), "utf8");
  const report = (name) => cliReport([name], workspace).files[0];

  let loaded = false;
  await run("workbench opens the examples and the extension starts its server", async () => {
    await wb.load(url, [BROKEN, VALID, NESTED]);
    await wb.open(BROKEN);
    // The status bar item is ours and needs the server's answer: proof the Node build runs.
    await page.locator(LWIR_STATUS, { hasText: /LWIR: \d+ problems?/ }).waitFor({ timeout: 90_000 });
    await page.locator('[id="status.editor.mode"]', { hasText: "YAML" }).waitFor();
    loaded = true;
  });
  if (!loaded) return false;
  // LWIR_E2E_ONLY=graph: only the graph view's checks (while working on it)
  if (process.env.LWIR_E2E_ONLY === "graph") {
    await graphChecks({ page, wb, workspace, run, screenshots });
    await graphEditChecks({ page, wb, workspace, run });
    await dryRunChecks({ page, wb, workspace, run });
    return true;
  }

  // ---- issue #16: files never opened, git checkout; then scope "openFiles" for the checks below ------------
  await workspaceChecks({ page, wb, workspace, run, helpers: { expectedRows, report, waitForEqual } });

  // ---- the broken example ---------------------------------------------------------------------------
  const brokenReport = report(BROKEN);
  const brokenRows = expectedRows(brokenReport);
  const undeclared = brokenReport.findings.find((f) => f.code === "step.undeclared_dependency");
  const disallowed = brokenReport.findings.find((f) => f.code === "model.disallowed");

  await run("broken example: squiggles, and the Problems panel lists exactly the CLI's findings", async () => {
    if (brokenRows.length === 0) throw new Error(`the CLI reports no problem in ${BROKEN}`);
    await wb.escape();
    await wb.open(BROKEN);
    const last = brokenRows[brokenRows.length - 1];
    await wb.goto(last.line, last.col);
    await page.locator(".monaco-editor .squiggly-error").first().waitFor();
    await wb.showProblems();
    await waitForEqual(page, problemRows, brokenRows, "Problems panel rows (message, source, code, Ln, Col) differ from the CLI's findings");
    await wb.screenshot("squiggles.png");
  });

  await run("broken example: the status bar item and the code lens on apiVersion show its problem count", async () => {
    const count = brokenReport.findings.length + brokenReport.parseErrors.length;
    const words = `${count} problem${count === 1 ? "" : "s"}`;
    await wb.escape();
    await wb.open(BROKEN);
    await page.locator(LWIR_STATUS, { hasText: new RegExp(`^\\s*LWIR: ${words}\\s*$`) }).waitFor();
    const apiVersion = locate(read(BROKEN), /^apiVersion:/, "apiVersion", { first: true });
    await wb.goto(apiVersion.line, 1);
    const lens = page.locator(".codelens-decoration", { hasText: new RegExp(`^\\s*${words}\\s*$`) });
    await lens.first().waitFor();
  });

  /** The broken example open, the mouse on the squiggle of finding `f` (the one drawn on its line). */
  const hoverSquiggleOf = async (f) => {
    await wb.escape();
    await wb.open(BROKEN);
    await wb.goto(f.range.start.line + 1, f.range.start.character + 1);
    const cursor = await wb.cursorBox();
    const squiggles = await page.locator(".monaco-editor.focused .squiggly-error").evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
    const box = squiggles.find((r) => r.y <= cursor.y + cursor.height / 2 && cursor.y + cursor.height / 2 <= r.y + r.height + 2);
    if (!box) throw new Error(`no squiggle on line ${f.range.start.line + 1} (squiggles at ${json(squiggles)})`);
    await wb.mouseTo(box.x + box.width / 2, box.y + box.height / 2);
  };

  /** Waits for the Markdown preview to show the rule page of `code` rendered: its title is the code (the preview is a webview: frames inside frames). */
  const renderedRulePage = async (code) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      for (const frame of page.frames()) {
        const h1 = await frame.locator("h1").first().textContent({ timeout: 500 }).catch(() => null);
        if (h1?.includes(code)) return;
      }
      if (Date.now() > deadline) throw new Error(`no rendered page with the title ${code}`);
      await page.waitForTimeout(500);
    }
  };
  /**
   * Closes the preview whose tab is given. Rendered, the preview's frame takes the focus, late at times: a
   * palette opened before that closed under the typing. So the preview is closed only once rendered, after
   * a click gives the keys back to the workbench (the frame holding them, F1 may open nothing).
   */
  const closePreview = async (previewTab) => {
    await wb.refocus();
    await wb.command("View: Close Editor");
    await previewTab.first().waitFor({ state: "detached" });
  };

  await run("hovering a squiggle shows the finding's message", async () => {
    const f = disallowed ?? brokenReport.findings[0];
    await hoverSquiggleOf(f);
    await wb.hoverWith([f.message, f.code], 30_000);
    await wb.screenshot("hover-problem.png");
  });

  await run("clicking the finding's code in the hover opens its rule page from the extension, in the Markdown preview", async () => {
    const f = disallowed ?? brokenReport.findings[0];
    // the hover of the check before is still up; its code link is the diagnostic's codeDescription
    const link = page.locator(".monaco-hover:not(.hidden) a.code-link", { hasText: f.code });
    await link.first().waitFor({ state: "visible", timeout: 30_000 });
    const href = await link.first().getAttribute("href");
    if (!href?.startsWith("lwir-rule:")) throw new Error(`the code links to ${href}, not to the page in the extension`);
    await link.first().click();
    // the preview's tab, and no text editor of the page left open
    const previewTab = page.locator(".tabs-container .tab", { hasText: `Preview ${f.code}.md` });
    await previewTab.first().waitFor({ state: "visible", timeout: 30_000 });
    await page.locator(".tabs-container .tab", { hasText: new RegExp(`^\\s*${f.code.replace(/\./g, "\\.")}\\.md\\b`) }).waitFor({ state: "detached", timeout: 10_000 });
    await renderedRulePage(f.code);
    await wb.screenshot("rule-page.png");
    await closePreview(previewTab);
  });

  await run("the hover's \"Examples and details\" link opens the same rule page (VS Code's hover drops links of unknown schemes)", async () => {
    // A Markdown preview's frame may hold the keys (the check before opened one; this one opens another):
    // keys pressed then open no quick input. wb.quickInput gives the focus back with a click and presses
    // again; the click here does it before the first key. No Go to Line: the broken example is short, its
    // squiggles are in view.
    await wb.refocus();
    await wb.escape();
    await wb.open(BROKEN);
    const squiggle = page.locator(".monaco-editor.focused .squiggly-error").first();
    await squiggle.waitFor();
    const box = await squiggle.boundingBox();
    await wb.mouseTo(box.x + box.width / 2, box.y + box.height / 2);
    const link = page.locator(".monaco-hover:not(.hidden) a", { hasText: "Examples and details of" });
    await link.first().waitFor({ state: "visible", timeout: 30_000 });
    const code = /Examples and details of (\S+)/.exec(await link.first().innerText())?.[1]?.replace(/`/g, "");
    await link.first().click();
    const previewTab = page.locator(".tabs-container .tab", { hasText: `Preview ${code}.md` });
    await previewTab.first().waitFor({ state: "visible", timeout: 30_000 });
    await renderedRulePage(code);
    await closePreview(previewTab);
  });

  const stepsOf = (name) => {
    const doc = parseYaml(read(name));
    return Array.isArray(doc?.steps) ? doc.steps : [];
  };

  await run("hovering a step id in a needs entry shows the step's details", async () => {
    const text = read(BROKEN);
    const target = stepsOf(BROKEN).find((s) => s.id === "review");
    if (!target) throw new Error(`${BROKEN} has no step "review"`);
    const at = locate(text, /^\s*needs: \[review/, "review");
    await wb.escape();
    await wb.open(BROKEN);
    await wb.goto(at.line, at.col + 2);
    const cursor = await wb.cursorBox();
    await wb.mouseTo(cursor.x + 3, cursor.y + cursor.height / 2);
    // hover.ts stepCard: "step `review` · `ai.generate`", the model, maxVisits, and what the occurrence is
    const parts = [/step\s+review/, target.uses, `model: ${target.with.model}`, `maxVisits: ${target.maxVisits}`, "needs entry"];
    await wb.hoverWith(parts, 30_000);
    await wb.screenshot("hover-step.png");
  });

  await run("go to definition (F12) on a needs entry moves the cursor to the step's id", async () => {
    const text = read(BROKEN);
    const at = locate(text, /^\s*needs: \[review/, "review");
    const decl = locate(text, /^\s*- id: review\s*$/, "review");
    await wb.escape();
    await wb.open(BROKEN);
    await wb.goto(at.line, at.col + 1);
    await page.keyboard.press("F12");
    await page.locator('[id="status.editor.selection"]', { hasText: new RegExp(`^\\s*Ln ${decl.line}, Col \\d+`) }).waitFor();
    const { line, col } = await wb.cursor();
    if (line !== decl.line || col < decl.col || col > decl.endCol) {
      throw new Error(`cursor at ${line}:${col}, expected on the id at ${decl.line}:${decl.col}-${decl.endCol}`);
    }
  });

  await run("quick fix (Ctrl+.) adds the missing needs entry: that problem disappears, the others stay", async () => {
    if (!undeclared) throw new Error(`the CLI reports no step.undeclared_dependency in ${BROKEN}`);
    const before = report(BROKEN);
    const beforeText = read(BROKEN);
    // codeActions.ts: `Add "<id>" to the needs of "<step>"`; the finding's path names the step.
    const id = /does not list "([^"]+)"/.exec(undeclared.message)?.[1];
    const stepIndex = Number(/^\$\.steps\[(\d+)\]/.exec(undeclared.path)?.[1]);
    const stepId = stepsOf(BROKEN)[stepIndex]?.id;
    const title = `Add "${id}" to the needs of "${stepId}"`;
    await wb.escape();
    await wb.open(BROKEN);
    await wb.goto(undeclared.range.start.line + 1, undeclared.range.start.character + 4);
    const action = (await wb.quickFixes()).filter({ hasText: title });
    await action.first().waitFor({ timeout: 30_000 });
    await wb.screenshot("quick-fix.png");
    await action.first().click();
    await page.locator(".action-widget").first().waitFor({ state: "hidden" });
    const remaining = expectedRows({ ...before, findings: before.findings.filter((f) => f !== before.findings.find((g) => g.code === undeclared.code && g.path === undeclared.path)) });
    await wb.showProblems();
    await waitForEqual(page, problemRows, remaining, "after the quick fix, the Problems panel should list the other findings only");
    // Saved, the file gives the CLI exactly what the panel shows.
    await page.locator(".tab.active", { hasText: BROKEN }).first().click(); // focus the editor
    await page.mouse.move(NEUTRAL.x, NEUTRAL.y); // no tab tooltip in the next screenshot
    await page.keyboard.press("Control+s");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    await waitForFile(file(BROKEN), (t) => t !== beforeText, "the fixed document");
    const after = expectedRows(report(BROKEN));
    if (!isDeepStrictEqual(after, remaining)) throw new Error(`the CLI on the saved file reports ${json(after)}, expected ${json(remaining)}`);
  });

  await run(`rename (F2) of a step id changes the declaration and every reference`, async () => {
    const before = read(BROKEN);
    const decl = locate(before, /^\s*- id: review\s*$/, "review");
    // The references of step "review": its id, needs entries, a decision target, steps.review in
    // expressions. Comments, prose and names that merely contain the word stay as they are.
    const expected = before
      .split("\n")
      .map((l) => (/^\s*#/.test(l) ? l : l.replace(/(\bid: |needs: \[(?:[\w-]+, )*|default: |to: |steps\.)review\b/g, `$1${NEW_ID}`)))
      .join("\n");
    if (expected === before) throw new Error("nothing to rename");
    await wb.escape();
    await wb.open(BROKEN);
    await wb.goto(decl.line, decl.col + 1);
    await page.keyboard.press("F2");
    const input = page.locator(".monaco-editor .rename-box input");
    await input.waitFor({ state: "visible" });
    await page.waitForFunction(() => document.activeElement?.closest(".rename-box") && document.activeElement.value === "review");
    await page.keyboard.press("Control+a");
    await page.keyboard.type(NEW_ID);
    await page.waitForFunction((v) => document.activeElement?.value === v, NEW_ID);
    await wb.screenshot("rename.png");
    await page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden" });
    await page.locator(".tab.active.dirty").waitFor();
    await page.keyboard.press("Control+s");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    const after = await waitForFile(file(BROKEN), (t) => t !== before, "the renamed document");
    if (after !== expected) {
      const a = after.split("\n");
      const diff = expected.split("\n").map((l, i) => (l === a[i] ? null : `  line ${i + 1}: expected ${json(l)}\n           got      ${json(a[i])}`)).filter(Boolean);
      throw new Error(`the saved document differs from the expected rename:\n${diff.slice(0, 10).join("\n")}`);
    }
  });

  // ---- the valid JSON example -----------------------------------------------------------------------
  const validReport = report(VALID);
  const version = validReport.workflowVersion;

  await run("completion after `{{ steps.` in a prompt lists exactly the steps the server offers there", async () => {
    const text = read(VALID);
    const doc = JSON.parse(text);
    // The prompt of the last step. completion.ts offers, after `steps.`, the steps of the same list
    // except the step itself (it runs once, so it cannot read itself), those in its needs first, then
    // the others in document order: here group-changes (needed), then list-merged.
    const self = doc.steps[doc.steps.length - 1];
    const others = doc.steps.filter((s) => s !== self);
    const expected = [...others.filter((s) => self.needs?.includes(s.id)), ...others.filter((s) => !self.needs?.includes(s.id))].map((s) => s.id);
    const at = locate(text, /^\s*"prompt": ".*\{\{ json\(steps\./, '"prompt"');
    const line = text.split("\n")[at.line - 1];
    await wb.escape();
    await wb.hidePanel();
    await wb.open(VALID);
    await wb.goto(at.line, line.lastIndexOf('"') + 1); // just before the closing quote
    await page.keyboard.type(" {{ steps.");
    await waitForEqual(page, suggestLabels, expected, "suggest widget labels after `{{ steps.`", 30_000);
    await wb.screenshot("suggest.png");
    await wb.escape();
    await wb.command("File: Revert File");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    if (read(VALID) !== text) throw new Error(`${VALID} changed on disk`);
  });

  await run("quiet typing: no squiggle on `{{ steps.` while the suggest widget is open; after Escape and a cursor move, the Problems panel equals the CLI's", async () => {
    const text = read(VALID);
    if (validReport.findings.length + validReport.parseErrors.length !== 0) throw new Error(`${VALID} is expected to have no problem`);
    const at = locate(text, /^\s*"prompt": ".*\{\{ json\(steps\./, '"prompt"');
    const line = text.split("\n")[at.line - 1];
    await wb.escape();
    await wb.hidePanel();
    await wb.open(VALID);
    await wb.goto(at.line, line.lastIndexOf('"') + 1); // just before the closing quote
    await page.keyboard.type(" {{ steps.");
    await page.locator(".suggest-widget.visible").waitFor();
    // The client has the server's report for the new text and holds its problem: the status bar says so
    // (it counts what is shown: issue #22); then give the pulled diagnostics time to arrive
    // (lwir.validation.delay is 150 ms). The squiggle must still not be drawn.
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: typing…\s*$/ }).waitFor();
    await page.waitForTimeout(2000);
    if ((await page.locator(".suggest-widget.visible").count()) === 0) throw new Error("the suggest widget closed by itself");
    const early = await page.locator(".monaco-editor.focused .squiggly-error").count();
    if (early !== 0) throw new Error(`${early} squiggle(s) drawn while \`{{ steps.\` is being typed`);
    await wb.screenshot("quiet-typing.png");
    // Escape closes the widget; Ctrl+Home moves the cursor away: the Problems panel lists what the CLI
    // reports for the typed text (JSON strings get no auto-closed braces: checked on the editor's text below).
    const lines = text.split("\n");
    const quote = line.lastIndexOf('"');
    lines[at.line - 1] = `${line.slice(0, quote)} {{ steps.${line.slice(quote)}`;
    const edited = lines.join("\n");
    const dir = mkdtempSync(join(tmpdir(), "lwir-quiet-"));
    writeFileSync(join(dir, VALID), edited);
    const typed = expectedRows(cliReport([VALID], dir).files[0]);
    if (typed.length === 0) throw new Error("the CLI reports no problem for the typed text");
    // The panel also lists the problems of the other open file (saved by the earlier checks).
    const expected = [...typed, ...expectedRows(report(BROKEN))].sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
    await wb.escape();
    await page.keyboard.press("Control+Home");
    await wb.showProblems();
    await waitForEqual(page, problemRows, expected, "after the cursor moved away, the Problems panel rows differ from the CLI's findings");
    await page.locator(".tab.active", { hasText: VALID }).first().click(); // focus the editor
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    const inEditor = await page.evaluate(() => navigator.clipboard.readText());
    if (inEditor !== edited) throw new Error(`the editor's text is not the original plus \` {{ steps.\` before the prompt's closing quote`);
    await wb.command("File: Revert File");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    if (read(VALID) !== text) throw new Error(`${VALID} changed on disk`);
  });

  await run("valid example: the status bar item and the code lens show the CLI's WorkflowVersion id", async () => {
    if (!version) throw new Error(`the CLI gives ${VALID} no WorkflowVersion: ${json(validReport.findings)}`);
    await wb.escape();
    await wb.hidePanel();
    await wb.open(VALID);
    await wb.goto(1, 1);
    await page.locator(LWIR_STATUS, { hasText: new RegExp(`^\\s*${version.id}\\s*$`) }).waitFor();
    await page.locator(".codelens-decoration", { hasText: new RegExp(`^\\s*WorkflowVersion ${version.id}\\s*$`) }).first().waitFor();
    // its tooltip carries the full hash
    const item = await page.locator(LWIR_STATUS).boundingBox();
    await wb.mouseTo(item.x + item.width / 2, item.y + item.height / 2);
    await wb.hoverWith([version.hash], 30_000);
    await wb.screenshot("workflow-version.png");
    await page.mouse.move(NEUTRAL.x, NEUTRAL.y);
  });

  await run('"LWIR: Copy WorkflowVersion id" copies the id and says "Copied wfver_…"', async () => {
    if (!version) throw new Error(`the CLI gives ${VALID} no WorkflowVersion`);
    await wb.escape();
    await wb.open(VALID);
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await wb.command("LWIR: Copy WorkflowVersion id");
    await page.locator('[id="status.extensionMessage"]', { hasText: `Copied ${version.id}` }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    if (copied !== version.id) throw new Error(`clipboard holds ${json(copied)}, expected ${version.id}`);
  });

  await run('"LWIR: Show canonical JSON" opens a read-only editor with the canonical JSON the id is hashed from', async () => {
    if (!version) throw new Error(`the CLI gives ${VALID} no WorkflowVersion`);
    const source = JSON.parse(read(VALID));
    await wb.escape();
    await wb.open(VALID);
    await wb.command("LWIR: Show canonical JSON");
    const name = VALID.replace(/\.json$/, ".canonical.json");
    await page.locator(".tab.active", { hasText: name }).first().waitFor();
    const editor = page.locator(".monaco-editor.focused", { has: page.locator(".view-line", { hasText: '{"apiVersion":' }) });
    await editor.waitFor();
    await wb.screenshot("canonical-json.png");
    // The whole text through the clipboard: a long wrapped line is only partly in the DOM.
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    const canonical = await page.evaluate(() => navigator.clipboard.readText());
    let value;
    try {
      value = JSON.parse(canonical);
    } catch (e) {
      throw new Error(`the editor's text is not JSON (${e.message}): ${canonical.slice(0, 200)}`);
    }
    if (value.apiVersion !== source.apiVersion || value.kind !== source.kind) throw new Error(`apiVersion/kind ${json([value.apiVersion, value.kind])}, expected ${json([source.apiVersion, source.kind])}`);
    if (!isDeepStrictEqual(value, source)) throw new Error("the canonical JSON is not the same value as the document");
    const hash = `sha256:${createHash("sha256").update(canonical, "utf8").digest("hex")}`;
    if (hash !== version.hash) throw new Error(`the editor's text hashes to ${hash}, the CLI's WorkflowVersion hash is ${version.hash}`);
    // read-only: typing is refused with VS Code's message ("Cannot edit in read-only editor"), and
    // nothing becomes dirty. The message sits at the cursor, which may be out of view on a long wrapped
    // line: its presence is what counts.
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("x");
    await page.locator(".monaco-editor-overlaymessage", { hasText: /read-?only/i }).waitFor({ state: "attached" });
    if (await page.locator(".tab.dirty").count()) throw new Error("an editor became dirty after typing in the canonical view");
    await wb.escape();
  });

  await run('"Preview prompt": the code lens on an ai.generate step opens what `lwir run --dry` says the model receives', async () => {
    const text = read(VALID);
    const step = JSON.parse(text).steps.find((s) => s.uses === "ai.generate");
    if (!step) throw new Error(`${VALID} has no ai.generate step`);
    // the current scenario: the first of the scenarios file beside the workflow
    const scenariosFile = VALID.replace(/\.lwir\.json$/, ".lwir.test.yaml");
    const scenarios = parseYaml(read(scenariosFile));
    const scenario = (Array.isArray(scenarios) ? scenarios : scenarios.scenarios)[0].name;
    const r = spawnSync(process.execPath, [CLI, "run", "--dry", "--scenario", scenario, "--format", "json", VALID], { cwd: workspace, encoding: "utf8" });
    if (r.stderr) throw new Error(`lwir run --dry failed (${r.status}): ${r.stderr}`);
    const expected = JSON.parse(r.stdout).steps.find((s) => s.path === step.id);
    if (expected?.user === undefined) throw new Error(`lwir run --dry gives ${step.id} no prompt: ${json(expected)}`);
    await wb.escape();
    await wb.open(VALID);
    const at = locate(text, new RegExp(`"id": ${escapeRe(json(step.id))}`), '"id"', { first: true });
    await wb.goto(at.line, at.col);
    // the focused editor's lens: an editor kept in the background holds hidden ones
    const lens = page.locator(".monaco-editor.focused .codelens-decoration a:visible", { hasText: /^\s*Preview prompt\s*$/ }).first();
    await lens.waitFor();
    await lens.click();
    // the preview opens beside the workflow, which keeps the focus; its tab is named after the step
    const tab = page.locator(".tab", { hasText: `${step.id}.prompt.txt` }).first();
    await tab.waitFor();
    await tab.click();
    const rule = "──────── user message ────────";
    // (a narrow editor wraps the rule: its words are on one view line)
    await page.locator(".monaco-editor.focused .view-line", { hasText: "user message" }).first().waitFor();
    // The whole text through the clipboard: long lines are only partly in the DOM.
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    const shown = await page.evaluate(() => navigator.clipboard.readText());
    // the layout of client/src/promptPreviewText.ts: heading lines, then the messages under their rules
    const heading = `Prompt of step ${step.id} (model ${step.with.model}) in ${VALID}\nScenario: scenario ${json(scenario)} (${scenariosFile})\n`;
    if (!shown.startsWith(heading)) throw new Error(`the preview does not start with ${json(heading)}: ${json(shown.slice(0, 300))}`);
    const userAt = shown.indexOf(`\n${rule}\n`);
    const system = expected.system === "" ? "──────── system prompt: none ────────" : `──────── system prompt ────────\n${expected.system}`;
    if (userAt < 0 || !shown.slice(0, userAt).endsWith(`\n${system}`)) throw new Error(`the system prompt is not ${json(expected.system)}: ${json(shown.slice(0, userAt))}`);
    const user = shown.slice(userAt + rule.length + 2);
    if (user !== expected.user) throw new Error(`the user message differs from lwir run --dry's:\n  expected ${json(expected.user)}\n  shown    ${json(user)}`);
    // read-only: typing changes nothing
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("x");
    await page.locator(".monaco-editor-overlaymessage", { hasText: /read-?only/i }).waitFor({ state: "attached" });
    if (await page.locator(".tab.dirty").count()) throw new Error("an editor became dirty after typing in the prompt preview");
    await wb.escape();
  });

  // ---- the outline of the nested example ------------------------------------------------------------
  await run("the Outline view lists the steps, a parallel step's body nested under it", async () => {
    const steps = stepsOf(NESTED);
    const parallel = steps.find((s) => s.uses === "parallel" && Array.isArray(s.steps));
    if (!parallel) throw new Error(`${NESTED} has no parallel step with a body`);
    await wb.escape();
    // one editor group, for the screenshot (unless an earlier failure left unsaved changes: no dialog)
    if ((await page.locator(".tab").count()) > 0 && (await page.locator(".tab.dirty").count()) === 0) {
      await wb.command("View: Close All Editors");
      await page.locator(".tab").first().waitFor({ state: "detached" });
    }
    await wb.open(NESTED);
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
    await wb.command("Explorer: Focus on Outline View");
    // Collapse the folder tree so the outline has the whole side bar.
    const folders = page.locator(".pane", { has: page.locator(".explorer-folders-view") }).locator(".pane-header").first();
    if ((await folders.getAttribute("aria-expanded")) === "true") await folders.click();
    const outline = page.locator(".outline-pane");
    const row = (label) => outline.locator(".monaco-list-row").filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRe(label)}$`) }) }).first();
    // outline.collapseItems is alwaysCollapse (settings): open "steps", then the parallel step
    for (const label of ["steps", parallel.id]) {
      await row(label).waitFor();
      if ((await row(label).getAttribute("aria-expanded")) !== "true") await row(label).locator(".monaco-tl-twistie").click();
      await outline.locator('.monaco-list-row[aria-expanded="true"]', { has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRe(label)}$`) }) }).first().waitFor();
    }
    await row(parallel.steps[parallel.steps.length - 1].id).waitFor();
    const rows = await outline.locator(".monaco-list-row").evaluateAll((els) =>
      els.map((e) => ({
        level: Number(e.getAttribute("aria-level")),
        name: (e.querySelector(".label-name")?.textContent ?? "").trim(),
        detail: (e.querySelector(".label-description")?.textContent ?? "").trim(),
      })));
    const at = rows.findIndex((r) => r.name === "steps");
    const level = rows[at].level;
    const got = [];
    for (const r of rows.slice(at + 1)) {
      if (r.level <= level) break;
      got.push({ depth: r.level - level, name: r.name, detail: r.detail });
    }
    const expected = steps.flatMap((s) => [
      { depth: 1, name: s.id, detail: s.uses },
      ...(s === parallel ? s.steps.map((b) => ({ depth: 2, name: b.id, detail: b.uses })) : []),
    ]);
    if (!isDeepStrictEqual(got, expected)) throw new Error(`outline under "steps":\n  expected ${json(expected)}\n  got      ${json(got)}`);
    // Put the cursor on the parallel step: the outline follows it, and the screenshot shows both.
    const decl = locate(read(NESTED), new RegExp(`^\\s*- id: ${escapeRe(parallel.id)}\\s*$`), parallel.id);
    await wb.goto(decl.line, decl.col);
    await outline.locator(".monaco-list-row.focused", { has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRe(parallel.id)}$`) }) }).first().waitFor();
    await page.mouse.move(NEUTRAL.x, NEUTRAL.y);
    await wb.screenshot("outline.png");
  });

  // ---- JSON editing: VS Code's own JSON support runs beside ours ----------------------------------------
  const closeAll = async () => {
    await wb.escape();
    if ((await page.locator(".tab").count()) > 0 && (await page.locator(".tab.dirty").count()) === 0) {
      await wb.command("View: Close All Editors");
      await page.locator(".tab").first().waitFor({ state: "detached" });
    }
  };

  await run("a JSON syntax error is listed once in the Problems panel (VS Code's JSON support, not ours too); the status bar says not valid JSON", async () => {
    const text = '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "kind": "Workflow"\n  "metadata": {"name": "broken"},\n  "steps": []\n}\n';
    writeFileSync(file(SYNTAX_ERROR), text);
    const ours = report(SYNTAX_ERROR);
    if (ours.parseErrors.length === 0) throw new Error(`the CLI reports no syntax error in ${SYNTAX_ERROR}`);
    await closeAll();
    await wb.openFromExplorer(SYNTAX_ERROR); // just written: see openFromExplorer
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: not valid JSON\s*$/ }).waitFor();
    await wb.showProblems();
    // one row, at the line of the missing comma, from VS Code's JSON support
    const line = ours.parseErrors[0].range.start.line + 1;
    const once = (expectedLine) => {
      const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")].filter((r) => r.querySelector(".marker-icon"));
      return rows.length === 1 && new RegExp(`\\[Ln ${expectedLine}, Col \\d+\\]`).test(rows[0].querySelector(".marker-line")?.textContent ?? "")
        && (rows[0].querySelector(".marker-source")?.textContent ?? "").trim() !== "lwir";
    };
    try {
      await page.waitForFunction(once, line);
    } catch (e) {
      throw new Error(`the Problems panel should list one syntax error on line ${line}, not from lwir; it lists ${json(await page.evaluate(problemRows))} (${e.message.split("\n")[0]})`);
    }
    await closeAll();
  });

  await run("typing `{` into an empty LWIR JSON file opens no suggestions; Enter then inserts a line break; Ctrl+Space still suggests", async () => {
    writeFileSync(file(EMPTY_JSON), "");
    await closeAll();
    await wb.hidePanel();
    await wb.openFromExplorer(EMPTY_JSON);
    await page.keyboard.type("{");
    // `{}` is as empty as an empty file (issue 22): the status bar says so before and after the `{`, so
    // it cannot tell when the answer to the `{` came back; Enter then must still break the line (an
    // accepted suggestion would have written the skeleton), and no widget may be open after the save.
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: empty\s*$/ }).waitFor();
    if (await page.locator(".suggest-widget.visible").count()) throw new Error(`typing { opened the suggest widget: ${json(await page.evaluate(suggestLabels))}`);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+s");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    const saved = await waitForFile(file(EMPTY_JSON), (t) => t.length > 0, "the typed document");
    if (!/^\{\s*\}\s*$/.test(saved)) throw new Error(`after { and Enter the file holds ${json(saved)}`);
    if (await page.locator(".suggest-widget.visible").count()) throw new Error(`typing { opened the suggest widget: ${json(await page.evaluate(suggestLabels))}`);
    // explicitly asked for, inside the braces: the top-level keys
    await wb.goto(2, 1);
    await page.keyboard.press("End");
    await page.keyboard.press("Control+Space");
    await page.waitForFunction(() => [...document.querySelectorAll(".suggest-widget.visible .monaco-list-row .label-name")].some((e) => e.textContent.trim() === "apiVersion"));
    await wb.escape();
  });

  // ---- issue #22: quiet typing at a person's speed; the indicators agree ---------------------------------
  await quietChecks({ page, wb, workspace, run });

  // ---- issue #22's messages: a schema error and the sp500 workflow's step input ----------------------------
  await messagesChecks({ page, wb, workspace, run, helpers: { waitForEqual } });

  // ---- issue #22's completion and snippets, and the JSON outline -----------------------------------------
  await completingChecks({ page, wb, workspace, run, helpers: { waitForFile } });

  // ---- issue #15's graph view ---------------------------------------------------------------------------
  await graphChecks({ page, wb, workspace, run, screenshots });
  // issue #26: editing from the graph view (mouse gestures, the context menu, the editor's undo)
  await graphEditChecks({ page, wb, workspace, run });

  // ---- issue #22's fixes: choice values (a snippet), Fix all in file, restart, output ------------------
  await fixesChecks({ page, wb, workspace, run, helpers: { waitForFile } });

  // ---- issue #24's Test Explorer: the scenarios files run from the Testing view -----------------------
  await testingChecks({ page, wb, workspace, run });

  // ---- issue #24's LWIR: Dry run: the trace, and its overlay on the graph view ------------------------
  await dryRunChecks({ page, wb, workspace, run });

  // ---- issue #14's authoring session, from empty files (last: it resizes the window) -------------------
  await authoringChecks({ page, wb, workspace, run, screenshots, helpers: { expectedRows, waitForEqual, waitForFile } });

  // ---- issue #25's Language Model Tools, called through vscode.lm.invokeTool (after the screenshots: the
  // checks leave their request and answer files in the workspace's .vscode folder) ------------------------
  await lmToolsChecks({ page, wb, workspace, run });
  return true;
}
