// Issue #24's Test Explorer in the real workbench: the examples' scenarios files in the Testing view, all
// run and passing (as many as `lwir test` counts in the workspace copy), then an expectation changed on
// disk fails in the editor, its message in the peek at the expectation's line. The file is put back after.
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
  await run("Test Explorer: a failing expectation shows its message at its line in the editor", async () => {
    if (!original.includes(STEPS_LINE)) throw new Error(`${SCENARIOS} no longer has "${STEPS_LINE}"`);
    await wb.escape();
    await wb.open(SCENARIOS);
    // Changed on disk, not typed: the editor reloads the unmodified file, the controller lists it again.
    writeFileSync(file(SCENARIOS), original.replace(STEPS_LINE, WRONG_STEPS_LINE));
    await page.locator(".monaco-editor.focused .view-line", { hasText: WRONG_STEPS_LINE }).first().waitFor({ timeout: 30_000 });
    await wb.command("Test: Run Tests in Current File");
    // VS Code writes a failure at the end of its line (injected text: the diff's "expected != actual"); the
    // line is the expectation's, `steps:` of the changed scenario. (The run leaves the focus in the Testing
    // view: the one editor open is the scenarios file's.)
    const expectation = page.locator(".monaco-editor .view-line", { hasText: WRONG_STEPS_LINE }).first();
    await page.locator(".monaco-editor .view-line", { hasText: WRONG_STEPS_LINE }).filter({ hasText: "!=" }).first().waitFor({ timeout: 60_000 });
    // Go to Next Test Failure opens the peek below that line, with our message (the peek does not open by
    // itself: testing.automaticallyOpenPeekView is "never" by default).
    await expectation.click(); // the editor's failures are the ones it goes to
    await wb.command("Test: Go to Next Test Failure");
    const peek = page.locator(".monaco-editor .peekview-widget", { hasText: "expect.steps: the steps run differ" });
    await peek.first().waitFor({ timeout: 30_000 });
    const lineBox = await expectation.boundingBox();
    const peekBox = await peek.first().boundingBox();
    if (!lineBox || !peekBox) throw new Error("the expectation's line or the peek is not drawn");
    if (peekBox.y < lineBox.y || peekBox.y > lineBox.y + 3 * lineBox.height) {
      throw new Error(`the peek (at y=${peekBox.y}) is not below the expectation's line (at y=${lineBox.y})`);
    }
    await wb.screenshot("test-failure.png");
  });
  writeFileSync(file(SCENARIOS), original);
  await wb.escape();
  await wb.command("View: Close All Editors").catch(() => {});
}
