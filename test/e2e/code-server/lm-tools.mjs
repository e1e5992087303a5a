// Issue #25's Language Model Tools in the real workbench: called through `vscode.lm.invokeTool`, as agent mode
// calls them, by a test-only extension (lm-probe/, packaged into its own .vsix by run.mjs and installed beside
// ours; never in the product's .vsix). The check writes the call into the workspace (REQUEST), runs the probe's
// command from the Command Palette and reads the answer it writes (ANSWER). The document has unsaved edits each
// time: the answer must be about the editor's text, not the file on disk (which the CLI checks alongside).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CLI, cliReport } from "../lib.mjs";

/** The probe's folder (run.mjs packages it). */
export const LM_PROBE_DIR = join(dirname(fileURLToPath(import.meta.url)), "lm-probe");
const REQUEST = ".vscode/lwir-e2e-request.json";
const ANSWER = ".vscode/lwir-e2e-answer.json";
const COMMAND = "LWIR e2e: Invoke the requested Language Model Tool";

const FILE = "lm-tools.lwir.yaml";
/** Valid: two steps, the second needing the first. */
const TEXT = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: lm-tools}
input: {schema: {type: object, properties: {ticket: {type: string}}}}
output: {schema: true}
permissions: {models: [gpt-4o]}
steps:
  - id: summarize
    uses: ai.generate
    with: {model: gpt-4o, prompt: "Summarize {{ input.ticket }}"}
    output: {mode: text}
  - id: answer
    uses: ai.generate
    needs: [summarize]
    with: {model: gpt-4o, prompt: "Answer {{ steps.summarize.output }}"}
    output: {mode: text}
`;

const json = (v) => JSON.stringify(v);

/** 1-based line and column of `word` on the first line containing `lineText`. */
function at(text, lineText, word) {
  const lines = text.split("\n");
  const i = lines.findIndex((l) => l.includes(lineText));
  if (i < 0) throw new Error(`no line holds ${json(lineText)}`);
  return { line: i + 1, col: lines[i].indexOf(word, lines[i].indexOf(lineText)) + 1 };
}

/** The CLI's report of a text that is not on disk (a copy in a temp folder). */
function cliOfText(text) {
  const dir = mkdtempSync(join(tmpdir(), "lwir-e2e-lm-"));
  try {
    writeFileSync(join(dir, FILE), text);
    return cliReport([FILE], dir).files[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `lwir validate --fix` makes of a text (on a copy). */
function cliFixed(text) {
  const dir = mkdtempSync(join(tmpdir(), "lwir-e2e-lm-"));
  try {
    writeFileSync(join(dir, FILE), text);
    const r = spawnSync(process.execPath, [CLI, "validate", "--fix", "--exit-zero", FILE], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`lwir validate --fix failed (${r.status}): ${r.stderr}`);
    return readFileSync(join(dir, FILE), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the checks' workflow into the workspace before code-server starts: quick open's file search may not
 * list a file written during the run (the first check failed so in a full run), and the explorer's row can sit
 * under its section header after the authoring checks resize the window.
 */
export function placeLmToolsFile(workspace) {
  writeFileSync(join(workspace, FILE), TEXT);
}

export async function lmToolsChecks({ page, wb, workspace, run }) {
  const file = join(workspace, FILE);
  const uri = pathToFileURL(file).href;
  let calls = 0;

  /** Writes the request and runs the probe's command; `whileWaiting` acts on the workbench before the answer comes (a dialog). */
  const call = async (tool, input, whileWaiting) => {
    const id = `call-${++calls}-${Date.now()}`;
    mkdirSync(join(workspace, ".vscode"), { recursive: true });
    writeFileSync(join(workspace, REQUEST), json({ id, tool, input }));
    await wb.command(COMMAND);
    if (whileWaiting) await whileWaiting();
    const until = Date.now() + 60_000;
    for (;;) {
      let answer;
      try {
        answer = JSON.parse(readFileSync(join(workspace, ANSWER), "utf8"));
      } catch {
        // not written yet, or being written
      }
      if (answer?.id === id) return answer;
      if (Date.now() > until) throw new Error(`no answer to ${tool} ${json(input)} in ${ANSWER} after 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** The tool's answer as JSON; its error (a thrown one, or the text "Error: …") fails the check. */
  const answerOf = (a) => {
    if (a.error) throw new Error(`vscode.lm.invokeTool("${a.tool}") threw ${a.error.name}: ${a.error.message} (listed in vscode.lm.tools: ${a.listed})`);
    try {
      return JSON.parse(a.text);
    } catch {
      throw new Error(`${a.tool} answered ${json(a.text)}`);
    }
  };
  /** The focused editor's whole text, through the clipboard (long documents are only partly in the DOM). */
  const editorText = async () => {
    await page.locator(".tab.active", { hasText: FILE }).first().click();
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    const text = await page.evaluate(() => navigator.clipboard.readText());
    await page.keyboard.press("Control+Home"); // the selection gone
    return text;
  };
  /** Ctrl+Z until the editor's tab is no longer dirty (the text is the file's again). */
  const undoAll = async () => {
    await page.locator(".tab.active", { hasText: FILE }).first().click();
    for (let i = 0; i < 20 && (await page.locator(".tab.active.dirty").count()) > 0; i++) {
      await page.keyboard.press("Control+z");
      await page.waitForTimeout(100);
    }
    await page.locator(".tab.active.dirty").waitFor({ state: "detached", timeout: 10_000 });
  };
  const dialog = page.locator(".monaco-dialog-box");

  await run("Language Model Tools (vscode.lm.invokeTool): lwir_validate answers on the editor's unsaved text: an error typed is reported, undone it is gone", async () => {
    writeFileSync(file, TEXT);
    const saved = cliOfText(TEXT);
    if (!saved.valid) throw new Error(`the CLI finds ${FILE} invalid: ${json(saved.findings)}`);
    await wb.escape();
    await wb.open(FILE); // quick open (placeLmToolsFile wrote the file before code-server started)
    // gpt-4o -> gpt-4o-mini, a model outside the permissions, not saved
    const model = at(TEXT, "with: {model: gpt-4o, prompt: \"Summarize", "gpt-4o");
    await wb.goto(model.line, model.col + "gpt-4o".length);
    await page.keyboard.type("-mini");
    await page.locator(".tab.active.dirty", { hasText: FILE }).waitFor();
    const typed = await editorText();
    const expected = cliOfText(typed);
    if (expected.valid || expected.findings.length === 0) throw new Error(`the CLI finds no problem in the typed text: ${json(typed)}`);
    if (readFileSync(file, "utf8") !== TEXT) throw new Error(`${FILE} changed on disk: the typed text was saved`);

    const first = answerOf(await call("lwir_validate", { path: uri }));
    const order = (a, b) => a[1] - b[1] || a[2] - b[2] || a[0].localeCompare(b[0]);
    const got = (first.findings ?? []).map((f) => [f.code, f.line, f.column]).sort(order);
    const want = expected.findings.map((f) => [f.code, f.range.start.line + 1, f.range.start.character + 1]).sort(order);
    if (first.valid !== false || json(got) !== json(want)) {
      throw new Error(`lwir_validate on the unsaved text:\n  expected valid false, findings ${json(want)} (the CLI on that text)\n  got      valid ${first.valid}, findings ${json(got)}`);
    }

    await undoAll();
    const second = answerOf(await call("lwir_validate", { path: uri }));
    if (second.valid !== true || (second.findings ?? []).length !== 0) throw new Error(`after undoing, lwir_validate answers valid ${second.valid}, findings ${json(second.findings)}`);
    if (second.workflowVersion?.id !== saved.workflowVersion.id) throw new Error(`after undoing, WorkflowVersion ${json(second.workflowVersion)}, the CLI's is ${saved.workflowVersion.id}`);
  });

  await run("Language Model Tools (vscode.lm.invokeTool): lwir_fix with write: true asks first (VS Code's dialog); cancelled nothing changes, confirmed the fix is applied in the editor, unsaved", async () => {
    if (readFileSync(file, "utf8") !== TEXT) writeFileSync(file, TEXT);
    await wb.escape();
    if ((await page.locator(".tab.active", { hasText: FILE }).count()) === 0) await wb.open(FILE); // quick open (placeLmToolsFile wrote the file before code-server started)
    if ((await page.locator(".tab.active.dirty").count()) > 0) await undoAll();
    // needs: [summarize] -> [summarise]: a misspelt step id with one close match, which lwir_fix corrects
    const needs = at(TEXT, "needs: [summarize]", "summarize");
    await wb.goto(needs.line, needs.col + "summari".length);
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.type("s");
    await page.locator(".tab.active.dirty", { hasText: FILE }).waitFor();
    const typed = await editorText();
    if (!typed.includes("needs: [summarise]")) throw new Error(`the typed text does not hold the misspelt id: ${json(typed)}`);
    const fixed = cliFixed(typed);
    if (fixed === typed) throw new Error("lwir validate --fix changes nothing in the typed text");

    const title = "Apply LWIR's fixes?";
    const cancelled = await call("lwir_fix", { path: uri, write: true }, async () => {
      await dialog.filter({ hasText: title }).waitFor({ state: "visible", timeout: 30_000 });
      await dialog.locator(".monaco-button", { hasText: /^\s*Cancel\s*$/ }).click();
      await dialog.waitFor({ state: "hidden" });
    });
    if (!cancelled.error) throw new Error(`cancelled, lwir_fix still answered ${json(cancelled.text)}`);
    if ((await editorText()) !== typed) throw new Error("cancelled, the editor's text changed anyway");

    const confirmed = answerOf(await call("lwir_fix", { path: uri, write: true }, async () => {
      await dialog.filter({ hasText: title }).waitFor({ state: "visible", timeout: 30_000 });
      await dialog.locator(".monaco-button:not(.secondary)").first().click();
      await dialog.waitFor({ state: "hidden" });
    }));
    if (confirmed.written !== true || confirmed.valid !== true) throw new Error(`confirmed, lwir_fix answered written ${confirmed.written}, valid ${confirmed.valid}, remaining ${json(confirmed.remaining)}`);
    const shown = await editorText();
    if (shown !== fixed) throw new Error(`the editor's text after the fix differs from lwir validate --fix's:\n  expected ${json(fixed)}\n  shown    ${json(shown)}`);
    // the document had unsaved edits: it stays the user's to save
    if ((await page.locator(".tab.active.dirty", { hasText: FILE }).count()) === 0) throw new Error("the fixed document was saved; it had unsaved edits");
    if (readFileSync(file, "utf8") !== TEXT) throw new Error(`${FILE} changed on disk`);
    await undoAll();
  });
}
