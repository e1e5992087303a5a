// Issue #14's authoring session replayed in the real workbench: a workflow written from an empty file
// with completion, snippets and quick fixes, asserting at each checkpoint what the user must see. Each
// checkpoint saves the file and compares the Problems panel with what the CLI (the same analysis)
// reports for the saved text, so a position in the editor is checked against the file itself.
// The YAML part is recorded as an animated GIF (authoring.gif) for the README.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import gifenc from "gifenc"; // CommonJS: no named exports
import pngjs from "pngjs";
import { cliReport } from "../lib.mjs";
import { LWIR_STATUS, NEUTRAL, problemRows, suggestLabels } from "./workbench.mjs";

const YAML_FILE = "flow.lwir.yaml";
const JSON_FILE = "flow.lwir.json";
export const GIF_NAME = "authoring.gif";
/** The workbench is made smaller for this part: the GIF shows it at its real size, readable. */
const VIEWPORT = { width: 1000, height: 620 };
const MODEL = "gpt-4o-mini";
const FIRST = "classify";
const SECOND = "summarize";
const TYPO = "clasify";
/** A valid workflow whose second step reads the first one's declared `summary` (authoring 7 misspells it). */
const TYPED_FILE = "typed.lwir.yaml";
const TYPED = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: summary
input:
  schema: {type: object, properties: {ticket: {type: string}}}
output:
  schema: true
permissions:
  models: [gpt-4o]
steps:
  - id: summarize
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Summarize {{ input.ticket }}"
    output:
      mode: object
      schema: {type: object, properties: {summary: {type: string, description: The summary}}, required: [summary]}
  - id: report
    uses: ai.generate
    needs: [summarize]
    with:
      model: gpt-4o
      prompt: "Report on {{ steps.summarize.output.summary }}"
    output: {mode: text}
`;

const { GIFEncoder, applyPalette, quantize } = gifenc;
const { PNG } = pngjs;
const json = (v) => JSON.stringify(v);

/** In-page: severity of each problem row ("error", "warning", "info") and its code, in panel order. */
function problemSeverities() {
  const out = [];
  for (const row of document.querySelectorAll(".markers-panel .monaco-list-row")) {
    const icon = row.querySelector(".marker-icon");
    if (!icon) continue;
    const cls = icon.className;
    const severity = /codicon-error/.test(cls) ? "error" : /codicon-warning/.test(cls) ? "warning" : /codicon-info/.test(cls) ? "info" : cls;
    out.push({ severity, code: (row.querySelector(".marker-code")?.textContent ?? "").replace(/\s+/g, " ").trim() });
  }
  return out;
}

/** Screenshots kept as PNG buffers, written as one animated GIF at the end. */
class Recorder {
  constructor(page) {
    this.page = page;
    this.frames = [];
  }

  async frame(delayMs = 1200) {
    await this.page.mouse.move(NEUTRAL.x, NEUTRAL.y).catch(() => {});
    this.frames.push({ png: await this.page.screenshot(), delayMs });
  }

  /** One palette per frame (gifenc's quantize): the light theme needs few colours, so frames stay small. */
  write(path) {
    const gif = GIFEncoder();
    for (const { png, delayMs } of this.frames) {
      const { width, height, data } = PNG.sync.read(png);
      const palette = quantize(data, 256, { format: "rgb444" });
      gif.writeFrame(applyPalette(data, palette, "rgb444"), width, height, { palette, delay: delayMs });
    }
    gif.finish();
    writeFileSync(path, gif.bytes());
    return gif.bytes().length;
  }
}

/**
 * Runs the authoring checks on `page` (after the other checks: it resizes the viewport and hides the
 * side bar, and restores both at the end). Helpers come from drive.mjs.
 */
export async function authoringChecks({ page, wb, workspace, run, screenshots, helpers }) {
  const { expectedRows, waitForEqual, waitForFile } = helpers;
  const file = (name) => join(workspace, name);
  const read = (name) => readFileSync(file(name), "utf8");
  const report = (name) => cliReport([name], workspace).files[0];
  const rec = new Recorder(page);
  const closeAll = async () => {
    await wb.escape();
    if ((await page.locator(".tab").count()) > 0 && (await page.locator(".tab.dirty").count()) === 0) {
      await wb.command("View: Close All Editors");
      await page.locator(".tab").first().waitFor({ state: "detached" });
    }
  };
  const focusEditor = async (name) => {
    await page.locator(".tab.active", { hasText: name }).first().click();
    await page.locator(".monaco-editor.focused").waitFor();
  };
  /** Saves the active editor; resolves with the text on disk once it differs from `before`. */
  const save = async (name, before) => {
    await focusEditor(name);
    await page.keyboard.press("Control+s");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    return waitForFile(file(name), (t) => t !== before, `the saved ${name}`);
  };
  const suggestClosed = async () => {
    if (await page.locator(".suggest-widget.visible").count()) {
      await page.keyboard.press("Escape");
      await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    }
  };
  /**
   * Types `lines` one per line from the cursor. Each new line comes from Ctrl+Enter (insert line below:
   * unlike Enter it never accepts a suggestion that popped up meanwhile); the auto-indentation it
   * brings is selected with Shift+Home and typed over, so each line gets exactly its own indentation.
   */
  const typeLines = async (lines) => {
    for (const [i, line] of lines.entries()) {
      if (i > 0) {
        await suggestClosed();
        await page.keyboard.press("Control+Enter");
        // the new line's indentation is set a moment after the key (client/src/typingAids.ts, from the
        // extension host): let it land before selecting it, as any person's next key would
        await page.waitForTimeout(250);
        await page.keyboard.press("Shift+Home");
      }
      await page.keyboard.type(line);
    }
    await suggestClosed();
  };
  /** The Problems panel lists what the CLI reports for the saved file. */
  const panelEqualsCli = async (name, what, adjust = (row) => row) => {
    const r = report(name);
    await waitForEqual(page, problemRows, expectedRows(r).map(adjust), what);
    return r;
  };
  /** Ctrl+. at the cursor: the first offered action's title; returns its locator. */
  const firstAction = async (titleRe) => {
    const rows = await wb.quickFixes();
    const first = oneLineText(await rows.first().innerText());
    if (!titleRe.test(first)) {
      const all = (await rows.allInnerTexts()).map(oneLineText);
      throw new Error(`the first quick fix is ${json(first)}, expected ${titleRe}; offered ${json(all)}`);
    }
    return rows.first();
  };
  const apply = async (row) => {
    await row.click();
    await page.locator(".action-widget").first().waitFor({ state: "hidden" });
  };
  /** The squiggle on `line` spans exactly the columns start..end (1-based, end exclusive). */
  const squiggleSpans = async (line, start, end) => {
    await wb.goto(line, start);
    const from = await wb.cursorBox();
    await wb.goto(line, end);
    const to = await wb.cursorBox();
    const mid = from.y + from.height / 2;
    const boxes = await page.locator(".monaco-editor.focused .squiggly-error").evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
    const onLine = boxes.filter((r) => r.y <= mid && mid <= r.y + r.height + 2);
    const exact = onLine.find((r) => Math.abs(r.x - from.x) <= 3 && Math.abs(r.x + r.width - to.x) <= 3);
    if (!exact) throw new Error(`no squiggle from x=${from.x.toFixed(0)} to x=${to.x.toFixed(0)} on line ${line}: ${json(onLine)}`);
  };
  const valid = async () => {
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
  };

  // Each file is created empty and opened from the explorer (workbench.mjs openFromExplorer says why).
  const openFromExplorer = (name) => wb.openFromExplorer(name);
  await closeAll();
  writeFileSync(file(YAML_FILE), "");
  writeFileSync(file(JSON_FILE), "");
  /** The part's own layout: a smaller window without the side bar, the Problems panel open. */
  const layout = async () => {
    await page.setViewportSize(VIEWPORT);
    if (await page.locator(".part.sidebar").isVisible()) {
      await wb.command("View: Toggle Primary Side Bar Visibility");
      await page.locator(".part.sidebar").waitFor({ state: "hidden" });
    }
  };

  let text = "";
  let okSoFar = false;
  await run("authoring 1: an empty flow.lwir.yaml shows no error (an info notice); Ctrl+Space offers \"New workflow\" first; accepted and filled in, the workflow is valid", async () => {
    await openFromExplorer(YAML_FILE);
    await layout();
    await wb.showProblems();
    await focusEditor(YAML_FILE);
    await waitForEqual(page, problemSeverities, [{ severity: "info", code: "lwir.empty_document" }], "an empty document: one info notice, no error");
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: empty\s*$/ }).waitFor();
    if (await page.locator(`${LWIR_STATUS} .codicon-error`).count()) throw new Error("the status bar item shows an error icon for the empty document");
    await rec.frame(1500);
    await page.keyboard.press("Control+Space");
    await page.waitForFunction(() => {
      const first = document.querySelector('.suggest-widget.visible .monaco-list-row[data-index="0"] .label-name');
      return first?.textContent.trim() === "New workflow";
    }).catch(async (e) => {
      throw new Error(`the first suggestion is not "New workflow": ${json(await page.evaluate(suggestLabels))} (${e.message.split("\n")[0]})`);
    });
    await rec.frame(1800);
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    // the first tab stop (the workflow's name) is selected: type over it, Tab to the model, then the step id
    await page.keyboard.type("ticket-triage");
    await rec.frame();
    await page.keyboard.press("Tab"); // version
    await page.keyboard.press("Tab"); // description
    await page.keyboard.press("Tab"); // the model (mirrored into the step)
    await page.keyboard.type(MODEL);
    await page.keyboard.press("Tab"); // the step id
    await page.keyboard.type(FIRST);
    await rec.frame();
    await page.keyboard.press("Tab"); // the prompt's text
    await page.keyboard.press("Tab"); // the final stop (the output mode)
    await wb.escape();
    await valid();
    await waitForEqual(page, problemRows, [], "the filled-in skeleton has no problem");
    await rec.frame(1800);
    text = await save(YAML_FILE, "");
    const r = report(YAML_FILE);
    if (!r.workflowVersion) throw new Error(`the CLI finds the saved skeleton invalid: ${json([...r.parseErrors, ...r.findings])}`);
    const shown = await wb.lwirStatus();
    if (shown !== r.workflowVersion.id) throw new Error(`status bar ${json(shown)}, the CLI's id ${r.workflowVersion.id}`);
    for (const want of ["name: ticket-triage", `- ${MODEL}`, `model: ${MODEL}`, `- id: ${FIRST}`]) {
      if (!text.includes(want)) throw new Error(`the saved skeleton lacks ${json(want)}:\n${text}`);
    }
    okSoFar = true;
  });

  const PROMPT = "prompt: Classify this ticket: {{ input.topic }}";
  await run("authoring 2: a plain value with a colon gives one parse error on the value; Ctrl+. offers \"Quote this value\" first; applied, the workflow is valid", async () => {
    if (!okSoFar) throw new Error("not run: the skeleton was not written");
    okSoFar = false;
    const lines = text.split("\n");
    const i = lines.findIndex((l) => /^\s*prompt:/.test(l));
    const indent = lines[i].indexOf("prompt:");
    await focusEditor(YAML_FILE);
    await wb.goto(i + 1, indent + 1);
    await page.keyboard.press("Shift+End");
    await page.keyboard.type(PROMPT);
    await suggestClosed();
    await page.keyboard.press("Control+Home"); // a cursor move: the squiggle shows now, not after a pause
    const typed = await save(YAML_FILE, text);
    if (typed.split("\n")[i] !== " ".repeat(indent) + PROMPT) throw new Error(`the typed line is ${json(typed.split("\n")[i])}`);
    const r = await panelEqualsCli(YAML_FILE, "the Problems panel lists the CLI's parse error");
    if (r.parseErrors.length !== 1 || r.findings.length !== 0) throw new Error(`expected one parse error, the CLI reports ${json([...r.parseErrors, ...r.findings])}`);
    const e = r.parseErrors[0].range;
    const valueCol = indent + "prompt: ".length;
    if (e.start.line !== i || e.start.character !== valueCol) throw new Error(`the parse error starts at ${e.start.line + 1}:${e.start.character + 1}, expected on the value at ${i + 1}:${valueCol + 1}`);
    await wb.goto(i + 1, valueCol + 3);
    await rec.frame(1800);
    const fix = await firstAction(/^Quote this value/);
    await rec.frame(1800);
    await apply(fix);
    await valid();
    await waitForEqual(page, problemRows, [], "no problem once the value is quoted");
    text = await save(YAML_FILE, typed);
    const line = text.split("\n")[i].trim();
    if (line !== 'prompt: "Classify this ticket: {{ input.topic }}"') throw new Error(`the quoted line is ${json(line)}`);
    await rec.frame();
    okSoFar = true;
  });

  let secondAt = -1;
  await run("authoring 3: a second step whose needs has a typo: the squiggle is on the typo; Ctrl+. offers the did-you-mean \"Change\" fix first; applied, the finding is gone", async () => {
    if (!okSoFar) throw new Error("not run: the earlier checkpoint failed");
    okSoFar = false;
    await focusEditor(YAML_FILE);
    await page.keyboard.press("Control+End");
    const lines = text.split("\n");
    if (lines[lines.length - 1] !== "") throw new Error("the saved document does not end with a line break");
    secondAt = lines.length - 1; // 0-based line of `- id:`
    await typeLines([
      `  - id: ${SECOND}`,
      "    uses: ai.generate",
      `    needs: [${TYPO}]`,
      "    with:",
      `      model: ${MODEL}`,
      '      prompt: "Summarize the ticket {{ input.topic }}"',
      "    output:",
      "      mode: text",
    ]);
    await page.keyboard.press("Control+Home");
    const typed = await save(YAML_FILE, text);
    // the editor's message adds the suggestion the quick fix applies (diagnostics.ts)
    const didYouMean = (row) => (row.code === "step.missing_dependency" ? { ...row, message: `${row.message} Did you mean "${FIRST}"?` } : row);
    const r = await panelEqualsCli(YAML_FILE, "the Problems panel lists the CLI's findings for the typo, with the did-you-mean", didYouMean);
    const typo = r.findings.filter((f) => f.code === "step.missing_dependency");
    if (typo.length !== 1 || r.parseErrors.length !== 0) throw new Error(`expected one step.missing_dependency, the CLI reports ${json([...r.parseErrors, ...r.findings])}`);
    const range = typo[0].range;
    const squiggled = typed.split("\n")[range.start.line].slice(range.start.character, range.end.character);
    if (range.start.line !== range.end.line || squiggled !== TYPO) throw new Error(`the finding covers ${json(squiggled)}, expected the typo ${json(TYPO)}`);
    await squiggleSpans(range.start.line + 1, range.start.character + 1, range.end.character + 1);
    await wb.goto(range.start.line + 1, range.start.character + 2);
    await rec.frame(1800);
    const fix = await firstAction(new RegExp(`^Change "${TYPO}" to "${FIRST}"`));
    await rec.frame(1800);
    await apply(fix);
    await page.keyboard.press("Control+Home");
    text = await save(YAML_FILE, typed);
    const after = await panelEqualsCli(YAML_FILE, "after the fix, the Problems panel lists the CLI's findings");
    if (after.findings.some((f) => f.code === "step.missing_dependency")) throw new Error("the needs finding is still there");
    if (!text.includes(`needs: [${FIRST}]`)) throw new Error(`the fixed needs entry is not [${FIRST}]`);
    await rec.frame();
    okSoFar = true;
  });

  await run("authoring 4: a cycle (the first step needs the second): its diagnostic is on a needs entry; Ctrl+. offers \"Remove needs entry\"; applied, no cycle finding", async () => {
    if (!okSoFar) throw new Error("not run: the earlier checkpoint failed");
    const lines = text.split("\n");
    const uses = lines.findIndex((l) => l === "    uses: ai.generate");
    await focusEditor(YAML_FILE);
    await wb.goto(uses + 1, 1);
    await page.keyboard.press("End");
    await typeLines(["", `    needs: [${SECOND}]`]);
    await page.keyboard.press("Control+Home");
    const typed = await save(YAML_FILE, text);
    // The CLI reports the cycle at the step; the editor marks the needs entry that closes it, the one
    // just typed (the first step's `needs: [summarize]`): same finding, that range.
    const typedLine = typed.split("\n")[uses + 1];
    if (typedLine !== `    needs: [${SECOND}]`) throw new Error(`the typed line is ${json(typedLine)}`);
    const entry = { line: uses + 2, col: typedLine.indexOf(SECOND) + 1 };
    const r = await panelEqualsCli(YAML_FILE, "the Problems panel lists the CLI's findings, the cycle on the needs entry that closes it",
      (row) => (row.code === "lwir.invalid_cycle" ? { ...row, ...entry } : row));
    const cycle = r.findings.filter((f) => f.code === "lwir.invalid_cycle");
    if (cycle.length !== 1) throw new Error(`expected one lwir.invalid_cycle, the CLI reports ${json(r.findings)}`);
    const range = { start: { line: entry.line - 1, character: entry.col - 1 }, end: { line: entry.line - 1, character: entry.col - 1 + SECOND.length } };
    await squiggleSpans(range.start.line + 1, range.start.character + 1, range.end.character + 1);
    await wb.goto(range.start.line + 1, range.start.character + 2);
    await rec.frame(1800);
    const remove = await firstAction(new RegExp(`^Remove needs entry "${SECOND}" from step "${FIRST}"`));
    await rec.frame(1800);
    await apply(remove);
    await page.keyboard.press("Control+Home");
    text = await save(YAML_FILE, typed);
    const after = await panelEqualsCli(YAML_FILE, "after the fix, the Problems panel lists the CLI's findings");
    if (after.findings.some((f) => f.code === "lwir.invalid_cycle")) throw new Error("the cycle finding is still there");
    // the entry under the cursor went, and its key with it (it was the last): the valid two-step workflow again,
    // with the same WorkflowVersion (issue #22: no `needs: []` left behind)
    const expected = lines.join("\n");
    if (text !== expected) throw new Error(`after the fix the document is not the one before the cycle:\n${text}`);
    await valid();
    await rec.frame(2500);
  });

  let jsonSkeleton = "";
  let jsonBroken = "";
  await run("authoring 5: in a new flow.lwir.json, \"New workflow\" expands to valid JSON; a missing comma is listed once in the Problems panel", async () => {
    await wb.escape();
    // the panel then lists the JSON file's problems only (and no dialog if an earlier failure left it unsaved)
    await wb.command("View: Revert and Close Editor");
    await page.locator(".tab", { hasText: YAML_FILE }).waitFor({ state: "detached" });
    await openFromExplorer(JSON_FILE);
    await wb.showProblems();
    await focusEditor(JSON_FILE);
    await page.keyboard.press("Control+Space");
    await page.waitForFunction(() => document.querySelector('.suggest-widget.visible .monaco-list-row[data-index="0"] .label-name')?.textContent.trim() === "New workflow");
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    await page.keyboard.type("ticket-triage");
    await wb.escape(); // leave the snippet
    await valid();
    const skeleton = await save(JSON_FILE, "");
    const r = report(JSON_FILE);
    if (!r.workflowVersion) throw new Error(`the CLI finds the saved JSON skeleton invalid: ${json([...r.parseErrors, ...r.findings])}\n${skeleton}`);
    // the missing comma: after "kind": "Workflow"
    const lines = skeleton.split("\n");
    const kind = lines.findIndex((l) => /^\s*"kind": "Workflow",$/.test(l));
    await wb.goto(kind + 1, lines[kind].length + 1);
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Control+Home");
    const broken = await save(JSON_FILE, skeleton);
    const ours = report(JSON_FILE);
    if (ours.parseErrors.length === 0) throw new Error("the CLI reports no syntax error");
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: not valid JSON\s*$/ }).waitFor();
    const line = ours.parseErrors[0].range.start.line + 1;
    const once = (expectedLine) => {
      const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")].filter((x) => x.querySelector(".marker-icon"));
      return rows.length === 1 && new RegExp(`\\[Ln ${expectedLine}, Col \\d+\\]`).test(rows[0].querySelector(".marker-line")?.textContent ?? "");
    };
    try {
      await page.waitForFunction(once, line);
    } catch (e) {
      throw new Error(`the Problems panel should list one syntax error on line ${line}; it lists ${json(await page.evaluate(problemRows))} (${e.message.split("\n")[0]})`);
    }
    if (broken === skeleton) throw new Error("unreachable");
    jsonSkeleton = skeleton;
    jsonBroken = broken;
  });

  await run("authoring 6: in JSON, a step snippet's model typed over with a suggestion accepted by Tab keeps both quotes, and the next Tab moves on to the prompt", async () => {
    if (!jsonSkeleton) throw new Error("not run: the JSON skeleton was not written");
    await focusEditor(JSON_FILE);
    await page.keyboard.press("Control+z"); // the deleted comma back
    const restored = await save(JSON_FILE, jsonBroken);
    if (restored !== jsonSkeleton) throw new Error(`undo did not restore the skeleton:\n${restored}`);
    // a new step after the skeleton's one: `,` and a new line after its closing brace, then Ctrl+Space
    const lines = restored.split("\n");
    const close = lines.findIndex((l, i) => /^\s*\]\s*$/.test(l) && /^\s*\}\s*$/.test(lines[i - 1] ?? ""));
    if (close < 0) throw new Error(`no end of the steps list in:\n${restored}`);
    await wb.goto(close, lines[close - 1].length + 1);
    await page.keyboard.type(",");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+Space");
    const want = "ai.generate step";
    const focused = () => page.locator(".suggest-widget.visible .monaco-list-row.focused .label-name").first().textContent().then((t) => (t ?? "").trim(), () => "");
    await page.locator(".suggest-widget.visible .monaco-list-row").first().waitFor();
    for (let i = 0; i < 12 && (await focused()) !== want; i++) await page.keyboard.press("ArrowDown");
    if ((await focused()) !== want) throw new Error(`"${want}" is not offered: ${json(await page.evaluate(suggestLabels))}`);
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    await page.keyboard.type(SECOND); // the step id
    // the model: typed over, the suggestion accepted with Tab (the skeleton's permissions list "model")
    const model = "model";
    await page.keyboard.press("Tab");
    await page.keyboard.type(model.slice(0, 3));
    if (!(await page.locator(".suggest-widget.visible").count())) await page.keyboard.press("Control+Space");
    await page.locator(".suggest-widget.visible .monaco-list-row.focused", { hasText: model }).waitFor().catch(async () => {
      throw new Error(`"${model}" is not the focused suggestion: ${json(await page.evaluate(suggestLabels))}`);
    });
    // VS Code's JSON support proposes nothing of its own here (its values replace the quotes too)
    const offered = await page.evaluate(suggestLabels);
    if (offered.some((l) => l.startsWith('"'))) throw new Error(`a suggestion replaces the quotes: ${json(offered)}`);
    await page.keyboard.press("Tab");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    await page.keyboard.press("Tab"); // the prompt
    await page.keyboard.type("Summarize the ticket");
    await suggestClosed();
    await wb.escape();
    const typed = await save(JSON_FILE, restored);
    const r = report(JSON_FILE);
    if (r.parseErrors.length) throw new Error(`the CLI reports syntax errors: ${json(r.parseErrors)}\n${typed}`);
    const step = typed.slice(typed.indexOf(`"id": "${SECOND}"`));
    for (const want of [`"model": "${model}",`, '"prompt": "Summarize the ticket"']) {
      if (!step.includes(want)) throw new Error(`the new step lacks ${json(want)}:\n${step}`);
    }
  });

  await run("authoring 7: a misspelt output property the runtime lets through is a warning on the name; Ctrl+. offers \"Change \"sumary\" to \"summary\"\" first; applied, no problem", async () => {
    await wb.escape();
    if ((await page.locator(".tab.dirty").count()) > 0) await wb.command("View: Revert and Close Editor");
    writeFileSync(file(TYPED_FILE), TYPED);
    await openFromExplorer(TYPED_FILE);
    await wb.showProblems();
    await focusEditor(TYPED_FILE);
    await valid();
    const lines = TYPED.split("\n");
    const i = lines.findIndex((l) => l.includes("output.summary }}"));
    const col = lines[i].indexOf("summary }}");
    await wb.goto(i + 1, col + 1);
    for (let k = 0; k < "summary".length; k++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.type("sumary");
    await suggestClosed();
    await page.keyboard.press("Control+Home"); // a cursor move: the warning shows now, not after a pause
    const typed = await save(TYPED_FILE, TYPED);
    if (typed.split("\n")[i] !== lines[i].replace("summary }}", "sumary }}")) throw new Error(`the typed line is ${json(typed.split("\n")[i])}`);
    await waitForEqual(page, problemSeverities, [{ severity: "warning", code: "lwir.unknown_property" }], "one warning, the misspelt property");
    const r = report(TYPED_FILE);
    if (!r.workflowVersion || r.findings.length) throw new Error(`the CLI should find the file valid: ${json(r.findings)}`);
    const notice = (r.notices ?? []).find((n) => n.code === "lwir.unknown_property");
    if (!notice || notice.range.start.line !== i || typed.split("\n")[i].slice(notice.range.start.character, notice.range.end.character) !== "sumary") {
      throw new Error(`the CLI's notice is not on the name: ${json(r.notices)}`);
    }
    await wb.goto(i + 1, col + 3);
    await page.locator(".monaco-editor.focused .squiggly-warning").first().waitFor();
    const fix = await firstAction(/^Change "sumary" to "summary"/);
    await apply(fix);
    await waitForEqual(page, problemSeverities, [], "no problem once the name is changed");
    const fixed = await save(TYPED_FILE, typed);
    if (fixed !== TYPED) throw new Error(`after the fix the file is not the original:\n${fixed}`);
  });

  // The GIF (only the YAML part is recorded), then the workbench as the other checks left it.
  if (rec.frames.length > 0) {
    const bytes = rec.write(join(screenshots, GIF_NAME));
    console.log(`[code-server] ${GIF_NAME}: ${rec.frames.length} frames, ${(bytes / 1024).toFixed(0)} KiB`);
  }
  await closeAll();
  if (!(await page.locator(".part.sidebar").isVisible())) await wb.command("View: Toggle Primary Side Bar Visibility");
  await page.setViewportSize({ width: 1280, height: 800 });
}

function oneLineText(s) {
  return s.replace(/\s+/g, " ").trim();
}
