// Issue #26, editing from the graph view, with the mouse (no commands): a drag from a step's handle to
// another step adds the `needs` entry to the text and the edge to the drawing, and Ctrl+Z in the editor
// takes both back; a click on an edge and Delete removes it; the palette adds a step after the selected
// one and the editor shows its id; F2 on a step renames it through the editor's rename; a decision
// dragged to a step asks case or default, and Alt+Down moves a selected case; a step others refer to, deleted from the view's context menu, asks
// first, and "Remove the references too" removes it and their needs entries; a decision's case row dragged
// onto another reorders the cases (Escape cancels, Ctrl+Z restores), a click on a row shows the case, Tab and
// Alt+Down move one from the keyboard; a drag closing a loop is offered, Cancel changes nothing and accepting
// adds the edge and the maxVisits. Run in code-server (drive.mjs)
// and in VS Code for the Web (test/e2e/vscode/graph-web.mjs).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { log } from "../lib.mjs";

export const EDIT_FILE = "graph-edit.lwir.yaml";
const TEXT = [
  "apiVersion: littleworkflow.dev/v1",
  "kind: Workflow",
  "name: graph-edit",
  "steps:",
  "  - id: fetch",
  "    uses: code.run",
  "    with:",
  "      entrypoint: fetch.py",
  "  - id: shape",
  "    uses: code.run",
  "    with:",
  "      entrypoint: shape.py",
  "  - id: report",
  "    uses: code.run",
  "    needs: [fetch]",
  "    with:",
  "      entrypoint: report.py",
  "  - id: route",
  "    uses: decision",
  "    with:",
  "      cases:",
  '        - when: "{{ true }}"',
  "          to: report",
  '        - when: "{{ false }}"',
  "          to: end",
  "",
].join("\n");

/** Writes the checks' document (before the workbench loads, for a workbench whose explorer does not watch the disk). */
export function placeEditFile(workspace) {
  writeFileSync(join(workspace, EDIT_FILE), TEXT);
}

export async function graphEditChecks({ page, wb, workspace, run }) {
  const view = () => page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  // the editor's lines in their order on screen (the editor reuses line elements out of document order)
  const editorText = async () => (await page.locator(".monaco-editor .view-lines").first().locator(".view-line")
    .evaluateAll((els) => els.map((e) => ({ top: parseFloat(e.style.top), text: e.textContent })).sort((a, b) => a.top - b.top).map((l) => l.text).join("\n")))
    .replace(/\u00a0/g, " ");
  const waitForText = async (test, what, timeout = 30_000) => {
    const until = Date.now() + timeout;
    for (;;) {
      const text = await editorText();
      if (test(text)) return text;
      if (Date.now() > until) throw new Error(`${what}; the editor shows:\n${text}`);
      await page.waitForTimeout(100);
    }
  };
  const needsLines = (text) => text.split("\n").filter((l) => /^\s*needs:/.test(l));
  /** The middle of a node's box in page coordinates (Playwright's boxes of frame elements are the page's). */
  const centre = async (id) => {
    const box = await view().locator(`g.step[data-id="${id}"] rect.box`).boundingBox();
    if (!box) throw new Error(`node ${id} is not drawn`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const drag = async (from, to) => {
    await page.mouse.move((await centre(from)).x, (await centre(from)).y);
    // (a redraw replaces the handle: look again while one is under way)
    let handle;
    for (let i = 0; i < 20 && !handle; i++) {
      handle = await view().locator(`g.step[data-id="${from}"] circle.lwir-handle`).boundingBox({ timeout: 1000 }).catch(() => null);
      if (!handle) await page.mouse.move((await centre(from)).x, (await centre(from)).y);
    }
    if (!handle) throw new Error(`no handle on ${from}`);
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    const target = await centre(to);
    await page.mouse.move(target.x, target.y, { steps: 8 });
    await page.mouse.up();
  };
  /** Clicks an edge's line where nothing is drawn over it (a straight edge's box has no width, so Playwright
   * would not click the element itself): at page coordinates. */
  const clickLine = async (hit) => {
    const point = await hit.evaluate((p) => {
      for (let f = 0.5, k = 1; k < 20; f = 0.5 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 0.045, k++) {
        const at = p.getPointAtLength(p.getTotalLength() * f);
        const screen = new DOMPoint(at.x, at.y).matrixTransform(p.getScreenCTM());
        if (document.elementFromPoint(screen.x, screen.y) === p) return { x: screen.x, y: screen.y };
      }
      throw new Error("no point of the edge is clear of the boxes");
    });
    const frame = await page.frameLocator("iframe.webview.ready").locator("iframe#active-frame").boundingBox();
    await page.mouse.click(frame.x + point.x, frame.y + point.y);
  };
  const focusEditor = async () => {
    const line = page.locator(".monaco-editor .view-line").first();
    await line.click();
    await page.locator(".monaco-editor.focused").waitFor();
  };

  writeFileSync(join(workspace, EDIT_FILE), TEXT);
  let opened = false;
  await run("graph edit: the view opens on a workflow to edit", async () => {
    await wb.escape();
    await wb.command("View: Close All Editors");
    await wb.openFromExplorer(EDIT_FILE);
    await wb.command("LWIR: Open Graph");
    await view().locator('g.step[data-id="report"]').waitFor({ timeout: 60_000 });
    await view().locator('g.edge.needs[data-from="fetch"][data-to="report"]').waitFor({ state: "attached" });
    await view().locator(".lwir-palette button").first().waitFor();
    opened = true;
  });
  if (!opened) return;

  await run("graph edit: a drag from a step's handle to another step adds the needs entry and the edge; Ctrl+Z in the editor removes both", async () => {
    const edge = view().locator('g.edge.needs[data-from="fetch"][data-to="shape"]');
    if (await edge.count() !== 0) throw new Error("the edge is there before the drag");
    await drag("fetch", "shape");
    await edge.waitFor({ state: "attached" });
    const text = await waitForText((t) => needsLines(t).length === 2, "no second needs entry in the text");
    const shapeAt = text.indexOf("id: shape");
    const reportAt = text.indexOf("id: report");
    const needsAt = text.indexOf("needs", shapeAt);
    if (!(needsAt > shapeAt && needsAt < reportAt)) throw new Error(`the needs entry is not in step shape:\n${text}`);
    await focusEditor();
    await page.keyboard.press("Control+z");
    await edge.waitFor({ state: "detached" });
    const back = await waitForText((t) => needsLines(t).length === 1, "Ctrl+Z left the needs entry");
    if (back.replace(/\s+$/, "") !== TEXT.replace(/\s+$/, "")) log("code-server", `graph edit: text after Ctrl+Z differs in whitespace only as drawn:\n${back}`);
  });

  await run("graph edit: a click on an edge selects it and Delete removes its needs entry", async () => {
    const edge = view().locator('g.edge.needs[data-from="fetch"][data-to="report"]');
    const hit = edge.locator("path.lwir-hit");
    await clickLine(hit);
    await view().locator('g.edge.lwir-selected[data-from="fetch"][data-to="report"]').waitFor({ state: "attached" });
    await page.keyboard.press("Delete");
    await edge.waitFor({ state: "detached" });
    await waitForText((t) => needsLines(t).length === 0, "the needs entry is still in the text");
    await focusEditor();
    await page.keyboard.press("Control+z");
    await edge.waitFor({ state: "attached" });
    await waitForText((t) => needsLines(t).length === 1, "Ctrl+Z did not bring the needs entry back");
  });

  await run("graph edit: the palette adds a step after the selected step, needing it, and the editor selects its id", async () => {
    const before = await view().locator("g.step[data-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    await view().locator('g.step[data-id="shape"]').click();
    await view().locator('g.step.focused[data-id="shape"]').waitFor({ state: "attached" });
    await view().locator('.lwir-palette button[data-uses="tool.call"]').click();
    const added = view().locator("g.step[data-id]");
    const until = Date.now() + 30_000;
    let ids = before;
    while (ids.length === before.length && Date.now() < until) {
      await page.waitForTimeout(100);
      ids = await added.evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    }
    const fresh = ids.filter((id) => !before.includes(id));
    if (fresh.length !== 1) throw new Error(`steps before ${JSON.stringify(before)}, after ${JSON.stringify(ids)}`);
    await view().locator(`g.edge.needs[data-from="shape"][data-to="${fresh[0]}"]`).waitFor({ state: "attached" });
    const text = await waitForText((t) => t.includes(`id: ${fresh[0]}`), `no step ${fresh[0]} in the text`);
    if (!(text.indexOf(`id: ${fresh[0]}`) > text.indexOf("id: shape") && text.indexOf(`id: ${fresh[0]}`) < text.indexOf("id: report"))) throw new Error(`${fresh[0]} is not after shape:\n${text}`);
    await page.locator('[id="status.editor.selection"]', { hasText: new RegExp(`\\(${fresh[0].length} selected\\)`) }).waitFor();
    log("code-server", `graph edit: the palette added ${fresh[0]} after shape`);
  });

  await run("graph edit: F2 on a step focused in the graph runs the editor's rename at its id", async () => {
    // focus the drawing from the keyboard: a click on its empty corner, Home (the first step), Tab (the next)
    const canvas = await view().locator("svg#canvas").boundingBox();
    await page.mouse.click(canvas.x + canvas.width - 12, canvas.y + canvas.height - 12);
    await page.keyboard.press("Home");
    await view().locator('g.step.focused[data-id="fetch"]').waitFor({ state: "attached" });
    await page.keyboard.press("Tab");
    await view().locator('g.step.focused[data-id="shape"]').waitFor({ state: "attached" });
    await page.keyboard.press("F2");
    // (filled and confirmed on the input itself: keys sent before it has the focus would edit the text)
    const input = page.locator(".monaco-editor .rename-box input").first();
    await input.waitFor();
    await input.fill("tidy");
    await input.press("Enter");
    await view().locator('g.step[data-id="tidy"]').waitFor({ state: "attached" });
    // the step's id and the added step's needs entry (its entrypoint, shape.py, is no reference)
    await waitForText((t) => t.includes("id: tidy") && /needs: \[tidy\]/.test(t) && !/id: shape|\[shape\]/.test(t), "the rename did not reach every reference");
  });

  await run("graph edit: a decision dragged to a step asks case or default; Alt+Down on a selected case edge moves the case down", async () => {
    await drag("route", "tidy");
    const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: "The default" });
    await row.waitFor();
    await wb.pick(row);
    await view().locator('g.edge.default[data-from="route"][data-to="tidy"]').waitFor({ state: "attached" });
    await waitForText((t) => /default: tidy/.test(t), "no default in the text");
    // the case to report (the first) moved below the case to end
    const hit = view().locator('g.edge.transition[data-from="route"][data-to="report"] path.lwir-hit');
    await clickLine(hit);
    await view().locator('g.edge.lwir-selected[data-from="route"][data-to="report"]').waitFor({ state: "attached" });
    await page.keyboard.press("Alt+ArrowDown");
    const text = await waitForText((t) => t.indexOf("to: end") >= 0 && t.indexOf("to: end") < t.indexOf("to: report"), "the case to report is still first");
    if (!/when: "\{\{ false \}\}"\s+to: end\s+- when: "\{\{ true \}\}"\s+to: report/.test(text)) throw new Error(`the cases did not change places whole:\n${text}`);
    // the selection follows the case
    await view().locator('g.edge.lwir-selected[data-from="route"][data-to="report"][data-edge="1"]').waitFor({ state: "attached" });
  });

  await run("graph edit: deleting a step others need asks first, from the view's context menu; removing the references takes their needs entries too", async () => {
    await view().locator('g.step[data-id="fetch"]').click({ button: "right" });
    const item = page.locator(".context-view .action-label", { hasText: /^Delete Step$/ });
    await item.waitFor();
    await item.click();
    // (a menu just opened by the right button may take the first click for that button's release: the
    // item is hovered, so focused, and Enter runs it)
    await page.waitForTimeout(500);
    if (await item.isVisible()) await page.keyboard.press("Enter");
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor();
    const message = await dialog.innerText();
    if (!/Step "fetch" is referred to by report \(needs\)/.test(message)) throw new Error(`the question reads: ${message}`);
    await dialog.locator(".monaco-button", { hasText: "Remove the references too" }).click();
    await view().locator('g.step[data-id="fetch"]').waitFor({ state: "detached" });
    const text = await waitForText((t) => !t.includes("fetch"), "fetch is still named in the text");
    if (needsLines(text).length !== 1) throw new Error(`expected the added step's needs only:\n${text}`);
  });

  // the decision's case list: route's cases are now `false → end`, `true → report`, then the default (tidy)
  const caseRow = (index) => view().locator(`g.step[data-id="route"] g.case-row[data-case="${index}"]`);
  const rowCentre = async (index) => {
    const box = await caseRow(index).locator("rect.row").boundingBox();
    if (!box) throw new Error(`case row ${index} is not drawn`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  // (the editor may be scrolled to a case, its first line under the sticky scroll header: focus it by command)
  const focusText = async () => {
    await wb.command("View: Focus First Editor Group");
    await page.locator(".monaco-editor.focused").waitFor();
  };
  const casesOrder = (t) => [...t.matchAll(/^\s*to: (\S+)/gm)].map((m) => m[1]).join(",");
  await run("graph edit: a decision lists its cases; a row dragged onto another reorders the cases in the text and the list; Escape cancels; Ctrl+Z restores", async () => {
    const rows = await view().locator('g.step[data-id="route"] g.case-row > text').evaluateAll((els) => els.map((e) => e.textContent));
    if (rows.length !== 3 || !/end$/.test(rows[0]) || !/report$/.test(rows[1]) || !/default → tidy$/.test(rows[2])) throw new Error(`the case list reads ${JSON.stringify(rows)}`);
    if (casesOrder(await editorText()) !== "end,report") throw new Error(`unexpected cases before the drag: ${casesOrder(await editorText())}`);
    // Escape during a drag: nothing changes (the keyboard focus in the view first: a click on its empty corner)
    const canvas = await view().locator("svg#canvas").boundingBox();
    await page.mouse.click(canvas.x + canvas.width - 12, canvas.y + canvas.height - 12);
    let from = await rowCentre(1);
    let to = await rowCentre(0);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y - 2, { steps: 6 });
    await view().locator("line.lwir-case-drop").waitFor({ state: "attached" });
    if (await view().locator("svg#canvas[data-case-drag='1->0']").count() !== 1) throw new Error("the drag does not aim at the first row");
    await page.keyboard.press("Escape");
    await view().locator("line.lwir-case-drop").waitFor({ state: "detached" });
    await page.mouse.up();
    await page.waitForTimeout(800);
    if (casesOrder(await editorText()) !== "end,report") throw new Error("Escape did not cancel the drag");
    if (await view().locator("g.step.lwir-drop, svg#canvas[data-connecting]").count() !== 0) throw new Error("the row drag started a connect");
    // the drag itself: the second row onto the first
    from = await rowCentre(1);
    to = await rowCentre(0);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y - 2, { steps: 8 });
    await page.mouse.up();
    await waitForText((t) => casesOrder(t) === "report,end", "the cases are not reordered in the text");
    await view().locator('g.step[data-id="route"] g.case-row[data-case="0"]', { hasText: "report" }).waitFor({ state: "attached" });
    await focusText();
    await page.keyboard.press("Control+z");
    await waitForText((t) => casesOrder(t) === "end,report", "Ctrl+Z did not restore the order");
    await view().locator('g.step[data-id="route"] g.case-row[data-case="0"]', { hasText: "end" }).waitFor({ state: "attached" });
  });

  await run("graph edit: a click on a case row selects the decision and shows the case in the text; Tab reaches the rows and Alt+Down moves a case", async () => {
    const at = await rowCentre(1);
    await page.mouse.click(at.x, at.y);
    await view().locator('g.step.focused[data-id="route"]').waitFor({ state: "attached" });
    // the case's own range is selected: the editor's active line (the selection's end) is the case's `to: report`
    // and the line above it its `when` (read from the editor's own line numbers: it may have scrolled)
    const readSelection = () => page.locator(".monaco-editor").first().evaluate((ed) => {
      const number = ed.querySelector(".line-numbers.active-line-number");
      const top = number?.closest("[style*='top']")?.style.top;
      const lines = [...ed.querySelectorAll(".view-lines .view-line")];
      const at = (t) => lines.find((l) => l.style.top === t)?.textContent.replace(/\u00a0/g, " ") ?? "";
      const height = lines[0] ? parseFloat(getComputedStyle(lines[0]).height) : 19;
      return { number: number?.textContent.trim(), line: top === undefined ? "" : at(top), above: top === undefined ? "" : at(`${parseFloat(top) - height}px`), selected: ed.querySelectorAll(".selected-text").length };
    });
    let shown = await readSelection();
    for (const until = Date.now() + 10_000; !/to: report/.test(shown.line) && Date.now() < until; shown = await readSelection()) await page.waitForTimeout(200);
    if (!/to: report/.test(shown.line) || !/when: "\{\{ true \}\}"/.test(shown.above) || shown.selected === 0) throw new Error(`the selection: ${JSON.stringify(shown)}`);
    // keyboard: the node is focused; Tab goes to its first row, Alt+Down moves that case down
    await page.keyboard.press("Tab");
    await view().locator('g.step[data-id="route"] g.case-row[data-case="0"]:focus').waitFor({ state: "attached" });
    await page.keyboard.press("Alt+ArrowDown");
    await waitForText((t) => casesOrder(t) === "report,end", "Alt+Down on the row did not move the case");
    await view().locator('g.step[data-id="route"] g.case-row[data-case="1"]:focus', { hasText: "end" }).waitFor({ state: "attached", timeout: 10_000 });
    await focusText();
    await page.keyboard.press("Control+z");
    await waitForText((t) => casesOrder(t) === "end,report", "Ctrl+Z did not restore the order");
  });

  await run("graph edit: a drag that closes a loop through the decision is offered first; Cancel changes nothing, accepting adds the edge and the maxVisits", async () => {
    // report → route: route then needs report, and route routes to report: a loop the decision can leave
    const loopEdge = view().locator('g.edge.needs[data-from="report"][data-to="route"]');
    // the graph after the last Ctrl+Z first
    await view().locator('g.step[data-id="route"] g.case-row[data-case="0"]', { hasText: "end" }).waitFor({ state: "attached" });
    await page.waitForTimeout(500);
    await drag("report", "route");
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor();
    const message = await dialog.innerText();
    if (!/Connecting report → route closes the loop .*it needs maxVisits 2 on .*report.*route|Connecting report → route closes the loop .*it needs maxVisits 2 on .*route.*report/s.test(message)) throw new Error(`the offer reads: ${message}`);
    await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
    await dialog.waitFor({ state: "detached" });
    await page.waitForTimeout(800);
    const unchanged = await editorText();
    if (/maxVisits/.test(unchanged) || (await loopEdge.count()) !== 0) throw new Error(`Cancel changed something:\n${unchanged}`);
    await drag("report", "route");
    await dialog.waitFor();
    await dialog.locator(".monaco-button", { hasText: "Add edge and maxVisits 2" }).click();
    await loopEdge.waitFor({ state: "attached" });
    await waitForText((t) => (t.match(/maxVisits: 2/g) ?? []).length === 2, "the maxVisits are not in the text");
  });

  // leave the workbench as the later checks expect: the file as on disk, nothing open
  await wb.escape();
  for (let i = 0; i < 3 && (await page.locator(".tab.dirty").count()) > 0; i++) {
    await page.locator(".tab.dirty").first().click();
    await wb.command("File: Revert File");
    await page.waitForTimeout(300);
  }
  await wb.command("View: Close All Editors");
}
