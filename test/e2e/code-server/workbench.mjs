// A thin driver for the code-server workbench: the few gestures the checks need (quick open, command
// palette, go to line, hover, reading the Problems panel and the status bar), each one waiting on the
// state it produces. Selectors are VS Code's own class names as of code-server 4.139 (VS Code 1.139).
import { join } from "node:path";

/** The status bar item of our extension: `<publisher>.<name>.<item id>`. */
export const LWIR_STATUS = '[id="lwir-tools.lwir-tools.lwir.workflowVersion"]';
const QUICK_INPUT = ".quick-input-widget";
const QUICK_INPUT_BOX = ".quick-input-widget .quick-input-box input";
const SELECTION = '[id="status.editor.selection"]';
/** Empty space low in the side bar: nothing there shows a hover. */
export const NEUTRAL = { x: 200, y: 560 };

export const oneLine = (s) => s.replace(/\s+/g, " ").trim();

export class Workbench {
  constructor(page, screenshotsDir) {
    this.page = page;
    this.screenshotsDir = screenshotsDir;
  }

  async load(url, files) {
    const page = this.page;
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 90_000 }); // a loaded machine serves the first page slowly
    await page.locator(".monaco-workbench").waitFor({ timeout: 90_000 });
    for (const f of files) await page.locator(".explorer-folders-view .monaco-list-row", { hasText: f }).first().waitFor({ timeout: 90_000 });
  }

  async screenshot(name) {
    await this.page.screenshot({ path: join(this.screenshotsDir, name) });
  }

  /** Escape closes any widget or quick input a previous step left open. */
  async escape() {
    await this.page.keyboard.press("Escape");
    await this.page.keyboard.press("Escape");
  }

  /**
   * `key` (Ctrl+P, F1, Ctrl+G), then `text` in the quick input it opens. When none opens, the keys went to no
   * part of the workbench: the focus is given back (refocus) and the key pressed again.
   */
  async quickInput(key, text, tries = 3) {
    const page = this.page;
    for (let i = 1; ; i++) {
      await page.keyboard.press(key);
      try {
        await page.locator(QUICK_INPUT_BOX).waitFor({ state: "visible", timeout: i < tries ? 8000 : undefined });
        break;
      } catch (e) {
        if (i >= tries) throw e;
        const where = await this.focusedElement();
        console.log(`[workbench] ${key} opened no quick input (focus: ${where}); focusing the workbench and pressing it again`);
        await this.refocus();
      }
    }
    await page.keyboard.type(text);
  }

  /**
   * Gives the keys back to the workbench. While a webview's frame (the Markdown preview's) holds the focus,
   * the keys go into that frame and VS Code does not always pass them on: F1 or Ctrl+P then opens nothing.
   * The click lands where it changes nothing but the focus: the side bar's title, else the active editor's
   * tab (for a webview editor, its tab may hand the focus back to the frame: last resort), else empty space.
   */
  async refocus() {
    const page = this.page;
    await page.bringToFront();
    const title = page.locator(".part.sidebar .title-label").first();
    const tab = page.locator(".tab.active").first();
    if (await title.isVisible()) await title.click();
    else if (await tab.isVisible()) await tab.click();
    else await page.locator(".monaco-workbench").click({ position: { x: NEUTRAL.x, y: NEUTRAL.y } });
    await page.mouse.move(NEUTRAL.x, NEUTRAL.y);
  }

  /** Where the keyboard focus is, in words (for the log). */
  async focusedElement() {
    return this.page.evaluate(() => {
      const e = document.activeElement;
      const name = e ? `${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ? `.${e.className.trim().split(/\s+/).slice(0, 3).join(".")}` : ""}` : "none";
      return `${name}, document ${document.hasFocus() ? "has" : "lacks"} focus`;
    }).catch((e) => `unknown (${e.message})`);
  }

  async quickInputClosed() {
    await this.page.locator(QUICK_INPUT).waitFor({ state: "hidden" });
  }

  /** Ctrl+P: opens a workspace file in the active group; resolves once its tab is active. */
  async open(fileName) {
    const page = this.page;
    await this.quickInput("Control+p", fileName);
    const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRe(fileName)}$`) }) });
    await this.pick(row);
    await page.locator(".tab.active", { hasText: fileName }).first().waitFor();
    await page.locator(".monaco-editor.focused").waitFor();
  }

  /**
   * Opens a file from the explorer (a double click pins its tab), as a user who just created it would.
   * For a file written during the run: quick open's file search may not list one that new yet (at
   * times it did not for more than 30 s); once open, quick open finds it among the open editors.
   */
  async openFromExplorer(fileName) {
    const page = this.page;
    if (!(await page.locator(".part.sidebar").isVisible())) await this.command("View: Toggle Primary Side Bar Visibility");
    await this.command("Explorer: Focus on Folders View"); // expands it too, if collapsed
    const row = page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^\\s*${escapeRe(fileName)}\\s*$`) }).first();
    // the explorer draws only the rows in view: with many files the new one may be further down
    const view = await page.locator(".explorer-folders-view").boundingBox();
    for (let i = 0; view && i < 60 && !(await row.isVisible()); i++) {
      await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
      await page.mouse.wheel(0, i < 30 ? 400 : -400);
      await page.waitForTimeout(50);
    }
    await row.dblclick();
    await page.locator(".tab.active:not(.preview)", { hasText: fileName }).first().waitFor();
    // VS Code 1.91 (for the Web, test/e2e/vscode/graph-web.mjs) leaves the focus in the explorer
    if (!(await page.locator(".monaco-editor.focused").isVisible())) await this.command("View: Focus Active Editor Group");
    await page.locator(".monaco-editor.focused").waitFor();
    await page.mouse.move(NEUTRAL.x, NEUTRAL.y);
  }

  /**
   * F1, the command's title, a click on its row. Asked again (up to 3 times) when the row does not show: once
   * in a full run the palette closed under the typing (a focus change from a webview) and left its rows hidden.
   * `opensPick`: the command shows a quick pick of its own, so the quick input stays open: the palette's row
   * going away is the sign that it ran.
   */
  async command(title, tries = 3, { opensPick = false } = {}) {
    const page = this.page;
    const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRe(title)}$`) }) });
    for (let i = 1; ; i++) {
      await this.quickInput("F1", title);
      try {
        await row.first().waitFor({ timeout: 10_000 });
        break;
      } catch (e) {
        if (i >= tries) throw e;
        await page.keyboard.press("Escape");
        await page.locator(QUICK_INPUT).waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
      }
    }
    if (!opensPick) return this.pick(row);
    await row.first().click();
    await row.first().waitFor({ state: "detached" });
  }

  /** Clicks a quick input row (not Enter: the first row may be a recently used other one). */
  async pick(row) {
    await row.first().waitFor();
    await row.first().click();
    await this.quickInputClosed();
    // else the pointer rests on whatever lay under the list (a tab, the breadcrumbs) and its tooltip
    // may show up in the next screenshot
    await this.page.mouse.move(NEUTRAL.x, NEUTRAL.y);
  }

  /** Ctrl+G line:col (1-based, as the status bar counts), then waits for the cursor to be there. */
  async goto(line, col) {
    await this.quickInput("Control+g", `${line}:${col}`);
    await this.page.keyboard.press("Enter");
    await this.quickInputClosed();
    await this.waitForCursor(line, col);
  }

  async waitForCursor(line, col, timeout) {
    await this.page.locator(SELECTION, { hasText: new RegExp(`^\\s*Ln ${line}, Col ${col}\\b`) }).waitFor({ timeout });
  }

  /** The cursor position from the status bar. */
  async cursor() {
    const text = await this.page.locator(SELECTION).innerText();
    const m = /Ln (\d+), Col (\d+)/.exec(text);
    if (!m) throw new Error(`status bar shows no cursor position: ${JSON.stringify(text)}`);
    return { line: Number(m[1]), col: Number(m[2]) };
  }

  /** Where the focused editor's cursor is drawn, in page coordinates. */
  async cursorBox() {
    const box = await this.page.locator(".monaco-editor.focused .cursors-layer .cursor").first().boundingBox();
    if (!box) throw new Error("no visible cursor in the focused editor");
    return box;
  }

  /** Moves the mouse away, then onto (x, y): a hover needs a fresh mouse move to start. */
  async mouseTo(x, y) {
    await this.page.mouse.move(NEUTRAL.x, NEUTRAL.y);
    await this.page.mouse.move(x, y, { steps: 4 });
  }

  /** Waits for a visible hover containing every string/regex of `parts`; returns its text. */
  async hoverWith(parts, timeout) {
    const page = this.page;
    let hover = page.locator(".monaco-hover:not(.hidden)");
    for (const p of parts) hover = hover.filter({ hasText: p });
    await hover.first().waitFor({ state: "visible", timeout });
    return oneLine(await hover.first().innerText());
  }

  /**
   * The hover at the editor's cursor, by the mouse on (x, y) and, when no hover with `parts` shows within a
   * few seconds (a mouse move the workbench did not take as a hover start), by the keyboard: Ctrl+K Ctrl+I
   * (Show or Focus Hover) at the cursor. Returns the hover's text.
   */
  async hoverAt(x, y, parts, timeout = 30_000) {
    await this.mouseTo(x, y);
    try {
      return await this.hoverWith(parts, 8000);
    } catch {
      return await this.hoverAtCursor(parts, timeout);
    }
  }

  /**
   * The hover at the editor's cursor by the keyboard (Ctrl+K Ctrl+I, Show or Focus Hover): the mouse moved
   * away and a hover already shown closed first (else the keys focus that one). Code lenses drawn late shift
   * the lines under a resting mouse; the cursor does not move with them.
   */
  async hoverAtCursor(parts, timeout = 30_000) {
    await this.page.mouse.move(NEUTRAL.x, NEUTRAL.y);
    await this.page.keyboard.press("Escape");
    await this.page.locator(".monaco-hover:not(.hidden)").first().waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
    await this.page.keyboard.press("Control+k");
    await this.page.keyboard.press("Control+i");
    return await this.hoverWith(parts, timeout);
  }

  /**
   * Ctrl+. at the cursor until the quick-fix menu shows (a Ctrl+. the editor took before it had focus back,
   * or before its code actions were asked for, opens nothing: seen once in a full run). Returns the rows.
   */
  async quickFixes(tries = 3) {
    const rows = this.page.locator(".action-widget .monaco-list-row.action");
    for (let i = 1; ; i++) {
      await this.page.keyboard.press("Control+.");
      try {
        await rows.first().waitFor({ timeout: 10_000 });
        return rows;
      } catch (e) {
        if (i >= tries) throw e;
        await this.page.keyboard.press("Escape");
      }
    }
  }

  async isPanelVisible() {
    return this.page.locator(".part.panel").isVisible();
  }

  async showProblems() {
    await this.command("Problems: Focus on Problems View");
    await this.page.locator(".markers-panel").waitFor({ state: "visible" });
  }

  async hidePanel() {
    if (!(await this.isPanelVisible())) return;
    await this.command("View: Toggle Panel Visibility");
    await this.page.locator(".part.panel").waitFor({ state: "hidden" });
  }

  /** The LWIR status bar item's text (without its icon). */
  async lwirStatus() {
    return oneLine(await this.page.locator(LWIR_STATUS).innerText());
  }
}

/**
 * In-page (self-contained, for page.evaluate / waitForFunction): the problem rows of the Problems panel
 * as {message, source, code, line, col}, sorted by position; related-information rows (no marker icon)
 * are left out. With `expected`, returns whether the rows equal it instead.
 */
export function problemRows(expected) {
  const text = (el, sel) => (el.querySelector(sel)?.textContent ?? "").replace(/\s+/g, " ").trim();
  const rows = [];
  for (const row of document.querySelectorAll(".markers-panel .monaco-list-row")) {
    if (!row.querySelector(".marker-icon")) continue;
    const where = /\[Ln (\d+), Col (\d+)\]/.exec(text(row, ".marker-line"));
    rows.push({
      message: text(row, ".marker-message"),
      source: text(row, ".marker-source"),
      code: text(row, ".marker-code"),
      line: where ? Number(where[1]) : null,
      col: where ? Number(where[2]) : null,
    });
  }
  rows.sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
  return expected === undefined ? rows : JSON.stringify(rows) === JSON.stringify(expected);
}

/** In-page: the labels of the visible suggest widget; with `expected`, whether they equal it. */
export function suggestLabels(expected) {
  const rows = document.querySelectorAll(".suggest-widget.visible .monaco-list-row");
  const labels = [...rows]
    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
    .map((r) => (r.querySelector(".label-name")?.textContent ?? "").trim());
  return expected === undefined ? labels : JSON.stringify(labels) === JSON.stringify(expected);
}

export function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
