// Issue 22's fixes in the real workbench: the choice values fix through the light bulb (a snippet: the
// placeholder value is selected and typed over, the file then valid), and "LWIR: Fix all in file" from
// the Command Palette (every fix that needs no choice, the same text `lwir validate --fix --fix-type all`
// writes, one Ctrl+Z undoing all of it). Every wait is on UI state or on the file on disk.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../lib.mjs";
import { LWIR_STATUS, oneLine } from "./workbench.mjs";

/** The start of both files: one model allowed, a ticket as input. */
const HEAD = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: triage}
input: {schema: {type: object, properties: {ticket: {type: string}}}}
output: {schema: true}
permissions: {models: [gpt-4o]}
steps:
`;

const CHOICE_FILE = "choice-values.lwir.yaml";
/** The classify step, up to its output. */
const CLASSIFY = `  - id: classify
    uses: ai.generate
    with: {model: gpt-4o, prompt: "Classify {{ input.ticket }}"}
`;
const CHOICE = `${HEAD}${CLASSIFY}    output:
      mode: choice
`;

const FIX_ALL_FILE = "fix-all.lwir.yaml";
/** A step read without its needs entry (a problem) and .label read from a choice (a warning): both have one right fix. */
const FIX_ALL = `${HEAD}${CLASSIFY}    output: {mode: choice, values: [bug, feature]}
  - id: answer
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Answer the {{ steps.classify.output.label }}"
    output: {mode: text}
`;

const json = (v) => JSON.stringify(v);

/** What `lwir validate --fix --fix-type all` makes of a text (the built CLI, on a copy in a temp folder). */
function cliFixed(name, text) {
  const dir = mkdtempSync(join(tmpdir(), "lwir-e2e-fix-"));
  writeFileSync(join(dir, name), text);
  const r = spawnSync(process.execPath, [CLI, "validate", "--fix", "--fix-type", "all", "--exit-zero", name], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`lwir validate --fix failed (${r.status}): ${r.stderr}`);
  return readFileSync(join(dir, name), "utf8");
}

export async function fixesChecks({ page, wb, workspace, run, helpers }) {
  const { waitForFile } = helpers;
  const file = (name) => join(workspace, name);
  writeFileSync(file(CHOICE_FILE), CHOICE);
  writeFileSync(file(FIX_ALL_FILE), FIX_ALL);
  const save = async (name, before) => {
    await page.locator(".tab.active", { hasText: name }).first().click();
    await page.locator(".monaco-editor.focused").waitFor();
    await page.keyboard.press("Control+s");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    return waitForFile(file(name), (t) => t !== before, `the saved ${name}`);
  };

  await run('fixes 1: output mode choice without values: the light bulb offers "Add values to the output of "classify""; applied, its placeholder is selected and typed over; the file is valid', async () => {
    await wb.escape();
    await wb.openFromExplorer(CHOICE_FILE);
    await page.locator(LWIR_STATUS, { hasText: /LWIR: 1 problem\b/ }).waitFor();
    // The finding is on the nearest key that is written: `output`.
    const line = CHOICE.split("\n").findIndex((l) => /^ {4}output:$/.test(l)) + 1;
    await wb.goto(line, 6);
    await page.locator(".monaco-editor.focused .squiggly-error").first().waitFor();
    const rows = await wb.quickFixes();
    const titles = (await rows.allInnerTexts()).map(oneLine);
    const index = titles.findIndex((t) => t === 'Add values to the output of "classify"');
    if (index < 0) throw new Error(`the light bulb offers ${json(titles)}`);
    await rows.nth(index).click();
    await page.locator(".action-widget").first().waitFor({ state: "hidden" });
    // A snippet: the placeholder value is selected, so typing replaces it (a plain edit would leave the cursor elsewhere).
    await page.keyboard.type("bug");
    await page.keyboard.press("Escape");
    const saved = await save(CHOICE_FILE, CHOICE);
    const expected = CHOICE.replace("      mode: choice\n", "      mode: choice\n      values: [bug]\n");
    if (saved !== expected) throw new Error(`after the fix and typing "bug" the file is:\n${saved}`);
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
  });

  await run('fixes 2: "LWIR: Fix all in file" from the palette applies every fix that needs no choice (what lwir validate --fix --fix-type all writes), one Ctrl+Z undoes it', async () => {
    await wb.escape();
    await wb.openFromExplorer(FIX_ALL_FILE);
    await page.locator(LWIR_STATUS, { hasText: /LWIR: \d+ problems?/ }).waitFor();
    const expected = cliFixed(FIX_ALL_FILE, FIX_ALL);
    if (expected === FIX_ALL || !/needs: \[classify\]/.test(expected) || /output\.label/.test(expected)) {
      throw new Error(`the CLI's fix is not what this check expects:\n${expected}`);
    }
    await wb.command("LWIR: Fix all in file");
    await page.locator(".tab.active.dirty", { hasText: FIX_ALL_FILE }).waitFor();
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
    const fixed = await save(FIX_ALL_FILE, FIX_ALL);
    if (fixed !== expected) throw new Error(`the editor's fix-all differs from the CLI's:\n--- editor\n${fixed}\n--- cli\n${expected}`);
    // one undo step
    await page.keyboard.press("Control+z");
    const undone = await save(FIX_ALL_FILE, fixed);
    if (undone !== FIX_ALL) throw new Error(`one Ctrl+Z leaves:\n${undone}`);
  });

  await run('fixes 3: "LWIR: Restart server" restarts the server (it answers again) and "LWIR: Show output" shows the LWIR output channel, which says so', async () => {
    await wb.escape();
    await wb.open(FIX_ALL_FILE);
    await wb.command("LWIR: Restart server");
    await wb.command("LWIR: Show output");
    await page.locator(".part.panel .view-lines", { hasText: "Restarting the LWIR language server" }).first().waitFor();
    // The restarted server answers: an edit gets its diagnostics, the undo the status from before it back
    // (the file is as fixes 2 left it: its two problems, after the Ctrl+Z of the fix-all)
    // (the status while the edit's own problems are held, "…, typing…", is a new status too)
    await wb.open(FIX_ALL_FILE);
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: 2 problems\s*$/ }).waitFor();
    await wb.goto(1, 1);
    await page.keyboard.type("x");
    for (const until = Date.now() + 30_000; /^LWIR: 2 problems$/.test(await wb.lwirStatus());) {
      if (Date.now() > until) throw new Error("the restarted server gave the edited text no new status within 30 s");
      await page.waitForTimeout(100);
    }
    await page.keyboard.press("Control+z");
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: 2 problems\s*$/ }).waitFor();
    await wb.hidePanel();
  });
}
