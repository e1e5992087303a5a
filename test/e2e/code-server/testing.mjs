// Issue #24's Test Explorer in the real workbench: the examples' scenarios files in the Testing view, all
// run and passing (as many as `lwir test` counts in the workspace copy), then an expectation changed on
// disk fails in the editor: the gutter of the scenario's line, the expectation's line, the Test Results. The file is put back after.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";

const SCENARIOS = "release-notes.lwir.test.yaml";
const STEPS_LINE = "steps: [list-merged, group-changes, write-notes]";
const WRONG_STEPS_LINE = "steps: [list-merged, write-notes]";

export async function testingChecks({ page, wb, workspace, run }) {
  const file = (name) => join(workspace, name);
  // The scenarios of the workspace copy, counted from the files themselves (a list, or {scenarios: [...]}).
  const count = readdirSync(workspace).filter((n) => /\.lwir\.test\.ya?ml$/.test(n)).reduce((n, name) => {
    const value = parseYaml(readFileSync(file(name), "utf8"));
    return n + (Array.isArray(value) ? value : value.scenarios).length;
  }, 0);
  /** The Testing view's summary ("5/5": passed of all, then the duration): waits until its count says `text`. */
  // (the count is an element of its own: the duration follows it with no space, "5/5304ms")
  const summary = (text, timeout = 60_000) => page.waitForFunction(
    (want) => [...document.querySelectorAll(".test-explorer .result-summary > *")].some((e) => e.textContent.trim() === want), text, { timeout });

  await run("Test Explorer: the Testing view lists the scenarios files, and Run All Tests passes every scenario", async () => {
    if (count === 0) throw new Error("no scenario in the workspace's scenarios files");
    await wb.escape();
    await wb.command("View: Show Testing");
    for (const name of readdirSync(workspace).filter((n) => /\.lwir\.test\.ya?ml$/.test(n))) {
      await page.locator(".test-explorer .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 60_000 });
    }
    await wb.command("Test: Run All Tests");
    await summary(`${count}/${count}`);
    await wb.screenshot("test-explorer.png");
  });

  const original = readFileSync(file(SCENARIOS), "utf8");
  await run("Test Explorer: a failing scenario is marked in the gutter of its line, the failure written at the expectation's line (expected != actual), our message in Test Results", async () => {
    if (!original.includes(STEPS_LINE)) throw new Error(`${SCENARIOS} no longer has "${STEPS_LINE}"`);
    await wb.escape();
    await wb.open(SCENARIOS);
    // Changed on disk, not typed: the editor reloads the unmodified file, the controller lists it again.
    writeFileSync(file(SCENARIOS), original.replace(STEPS_LINE, WRONG_STEPS_LINE));
    await page.locator(".monaco-editor.focused .view-line", { hasText: WRONG_STEPS_LINE }).first().waitFor({ timeout: 30_000 });
    await wb.command("Test: Run Tests in Current File");
    // The run is over when the summary counts the file's scenarios, one of them failed.
    const inFile = parseYaml(readFileSync(file(SCENARIOS), "utf8"));
    const total = (Array.isArray(inFile) ? inFile : inFile.scenarios).length;
    await summary(`${total - 1}/${total}`);
    // The gutter marks the failed scenario's line (`- name: two pull requests`) with the failed icon.
    const nameLine = page.locator(".monaco-editor .view-line", { hasText: `name: ${(Array.isArray(inFile) ? inFile : inFile.scenarios)[0].name}` }).first();
    // (the gutter follows the run's end a moment later: a spinner first)
    let icons = [];
    let nameBox;
    for (const until = Date.now() + 30_000; ; await page.waitForTimeout(250)) {
      nameBox = await nameLine.boundingBox();
      icons = await page.locator(".monaco-editor .testing-run-glyph.codicon-testing-failed-icon").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => r.y + r.height / 2));
      if (nameBox && icons.some((y) => y >= nameBox.y && y <= nameBox.y + nameBox.height)) break;
      if (Date.now() > until) throw new Error(`no failed-test icon in the gutter of the scenario's line (icons at y ${JSON.stringify(icons)}, line at ${nameBox?.y})`);
    }
    // The failure is written after the expectation's line (`steps:`): the diff's "expected != actual".
    const expectation = page.locator(".monaco-editor .view-line", { hasText: WRONG_STEPS_LINE }).first();
    const inline = page.locator(".monaco-editor .test-error-content-widget", { hasText: "!=" }).first();
    await inline.waitFor({ timeout: 30_000 });
    const [inlineBox, lineBox] = [await inline.boundingBox(), await expectation.boundingBox()];
    if (!inlineBox || !lineBox || Math.abs(inlineBox.y + inlineBox.height / 2 - (lineBox.y + lineBox.height / 2)) > lineBox.height) {
      throw new Error(`the failure is not written on the expectation's line (failure at ${JSON.stringify(inlineBox)}, line at ${JSON.stringify(lineBox)})`);
    }
    // The Test Results list gives our message under the scenario's name.
    await page.locator(".monaco-list-row", { hasText: "expect.steps: the steps run differ" }).first().waitFor({ timeout: 30_000 });
    await wb.screenshot("test-failure.png");
  });
  writeFileSync(file(SCENARIOS), original);
  await wb.escape();
  await wb.command("View: Close All Editors").catch(() => {});

  // ---- scenarios files are checked against their workflow; hover values -------------------------------
  await run("scenarios file: a step id misspelt under outputs is a warning on the id with its did-you-mean; Ctrl+. offers Change to first; applied, the warning is gone", async () => {
    const outputsLine = "      list-merged:\n";
    if (!original.includes(outputsLine)) throw new Error(`${SCENARIOS} no longer has ${JSON.stringify(outputsLine)}`);
    // written on disk, then opened: nothing typed, so nothing is held back by quiet typing
    writeFileSync(file(SCENARIOS), original.replace(outputsLine, "      list-mergd:\n"));
    try {
      await wb.escape();
      await wb.open(SCENARIOS);
      const lines = original.split("\n");
      const line = lines.findIndex((l) => l === outputsLine.slice(0, -1)) + 1;
      const col = outputsLine.indexOf("list") + 1;
      // the hover on the id: the warning's message with its did-you-mean, and its code (the Problems panel
      // draws only the rows in view, and the workspace has problems in many files)
      await wb.hidePanel();
      await wb.goto(line, col + 2);
      await page.locator(".monaco-editor.focused .squiggly-warning").first().waitFor({ timeout: 60_000 });
      const cursor = await wb.cursorBox();
      await wb.hoverAt(cursor.x + 2, cursor.y + cursor.height / 2, ['A sample output for "list-mergd": the workflow has no such step. Did you mean "list-merged"?', "lwir.scenario_unknown_step"]);
      await wb.escape();
      const first = (await wb.quickFixes()).first();
      const title = (await first.innerText()).replace(/\s+/g, " ").trim();
      if (title !== 'Change to "list-merged"') throw new Error(`the first quick fix is ${JSON.stringify(title)}, not "Change to \"list-merged\""`);
      await first.click();
      await page.locator(".monaco-editor.focused .view-line", { hasText: /^\s*list-merged:\s*$/ }).first().waitFor();
      await page.locator(".monaco-editor.focused .squiggly-warning").first().waitFor({ state: "detached", timeout: 30_000 });
      await wb.command("File: Revert File");
    } finally {
      writeFileSync(file(SCENARIOS), original);
    }
  });

  await run("hover values: inside {{ }} the hover adds the expression's value in the current scenario (the first of the scenarios file)", async () => {
    const workflow = "release-notes.lwir.json";
    const text = readFileSync(file(workflow), "utf8").split("\n");
    const line = text.findIndex((l) => l.includes('"repo": "{{ input.repo }}"')) + 1;
    if (line === 0) throw new Error(`${workflow} has no "repo": "{{ input.repo }}"`);
    const col = text[line - 1].indexOf("input.repo") + 1;
    const first = (parseYaml(original).scenarios ?? parseYaml(original))[0];
    await wb.escape();
    await wb.open(workflow);
    await wb.goto(line, col + 3);
    // by the keyboard at the cursor: the lenses drawn after the file opens shift the lines under a mouse
    const hover = await wb.hoverAtCursor(["Value in this scenario", JSON.stringify(first.input.repo)]);
    if (!hover.includes(first.name)) throw new Error(`the hover does not name the scenario ${JSON.stringify(first.name)}: ${hover}`);
    await wb.screenshot("hover-value.png");
    await wb.escape();
  });
}
