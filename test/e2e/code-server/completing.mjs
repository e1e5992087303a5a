// Issue #22's "Completion and snippets" and "JSON outline", in the real workbench: no word-based
// suggestion inside a snippet's placeholder of an LWIR file (other files keep them), `{` + Enter in a new
// JSON file is as empty as an empty file, an inserted `input` skeleton keeps the type checks on, `{{`
// closes in a JSON string, Enter in a YAML step indents to the step's keys, and a JSON file has one
// outline. Each check saves the file it typed in and reads the text from disk.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliReport } from "../lib.mjs";
import { LWIR_STATUS, escapeRe, problemRows, suggestLabels } from "./workbench.mjs";

const json = (v) => JSON.stringify(v);

/** A valid workflow whose description holds the word "Classify" (what VS Code's word suggestions offered). */
const WORDS_YAML = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: triage
  description: Classify each ticket, then summarize it
input:
  schema: {type: object, properties: {ticket: {type: string}}}
output:
  schema: {type: string}
permissions:
  models: [gpt-4o]
steps:
  - id: summarize
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Summarize {{ input.ticket }}"
    output: {mode: text}
`;

/** No `input` yet (the runtime requires it), and a step that reads a misspelt `input.topic`. */
const NO_INPUT_YAML = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: report

output:
  schema: {type: string}
permissions:
  models: [gpt-4o]
steps:
  - id: report
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Report on {{ input.topci }}"
    output: {mode: text}
`;

const ENTER_YAML = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: enter
input:
  schema: {type: object, properties: {ticket: {type: string}}}
output:
  schema: {type: string}
permissions:
  models: [gpt-4o]
steps:
  - id: classify
    uses: ai.generate
    with:
      model: gpt-4o
      prompt: "Classify {{ input.ticket }}"
    output:
      mode: text
`;

/** In-page: whether the suggest widget has settled: rows shown, or its "No suggestions." message. */
function suggestSettled() {
  const widget = document.querySelector(".suggest-widget.visible");
  if (!widget) return false;
  if (widget.querySelector(".monaco-list-row")) return true;
  return /no suggestions/i.test(widget.querySelector(".message")?.textContent ?? "");
}

export async function completingChecks({ page, wb, workspace, run, helpers }) {
  const { waitForFile } = helpers;
  const file = (name) => join(workspace, name);
  const closeAll = async () => {
    await wb.escape();
    if ((await page.locator(".tab").count()) > 0) {
      await wb.command("View: Revert and Close Editor").catch(() => {});
      // a command given while the workbench is busy is at times lost: ask again until no tab is left
      for (let attempt = 0; (await page.locator(".tab").count()) > 0; attempt++) {
        if (attempt === 3) throw new Error(`tabs left open: ${JSON.stringify(await page.locator(".tab").allTextContents())}`);
        await wb.escape();
        await wb.command("View: Close All Editors").catch(() => {});
        await page.locator(".tab").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
      }
    }
  };
  /** Writes `text` to `name` and opens it (the explorer: see openFromExplorer). */
  const fresh = async (name, text) => {
    await closeAll();
    writeFileSync(file(name), text);
    await wb.openFromExplorer(name);
  };
  const save = async (name, before) => {
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
  /** Ctrl+Space; the labels once the widget has settled. */
  const askSuggestions = async () => {
    await page.keyboard.press("Control+Space");
    await page.waitForFunction(suggestSettled);
    return page.evaluate(suggestLabels);
  };
  /** Ctrl+Space, then the row labelled `label` focused with the arrow keys and accepted with Enter. */
  const acceptSuggestion = async (label) => {
    await page.keyboard.press("Control+Space");
    await page.locator(".suggest-widget.visible .monaco-list-row").first().waitFor();
    const focused = () => page.locator(".suggest-widget.visible .monaco-list-row.focused .label-name").first().textContent().then((t) => (t ?? "").trim(), () => "");
    for (let i = 0; i < 20 && (await focused()) !== label; i++) await page.keyboard.press("ArrowDown");
    if ((await focused()) !== label) throw new Error(`"${label}" is not offered: ${json(await page.evaluate(suggestLabels))}`);
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
  };
  const lineOf = (text, re) => {
    const i = text.split("\n").findIndex((l) => re.test(l));
    if (i < 0) throw new Error(`no line matching ${re} in:\n${text}`);
    return i;
  };

  await wb.hidePanel();

  // ---- word suggestions and Tab in a snippet ---------------------------------------------------------
  await run("completing 1: YAML step snippet: a step id typed over its placeholder gets no word suggestion (\"Classify\" from the description); Tab moves on to the model", async () => {
    const name = "words.lwir.yaml";
    await fresh(name, WORDS_YAML);
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("  ");
    await acceptSuggestion("ai.generate step");
    // the id placeholder is selected: typed over at a person's speed
    await page.keyboard.type("classify", { delay: 60 });
    const offered = await askSuggestions();
    if (offered.some((l) => /^classify$/i.test(l))) throw new Error(`the step id's placeholder offers the word: ${json(offered)}`);
    await suggestClosed();
    await page.keyboard.press("Tab"); // the model
    await page.keyboard.type("gpt-4o", { delay: 30 });
    await suggestClosed();
    await wb.escape();
    const text = await save(name, WORDS_YAML);
    const added = text.slice(WORDS_YAML.length);
    if (!/^ {2}- id: classify\n/.test(added) || !/\n {6}model: gpt-4o\n/.test(added)) throw new Error(`the new step is not id classify with model gpt-4o:\n${added}`);
  });

  await run("completing 2: JSON New workflow: text typed over the version placeholder gets no word suggestion (from the description); Tab moves on to the description", async () => {
    const name = "words.lwir.json";
    await fresh(name, "");
    await page.keyboard.press("Control+Space");
    await page.waitForFunction(() => document.querySelector('.suggest-widget.visible .monaco-list-row[data-index="0"] .label-name')?.textContent.trim() === "New workflow");
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    await page.keyboard.type("triage", { delay: 30 });
    await page.keyboard.press("Tab"); // the version, "0.1.0"
    await page.keyboard.type("wh", { delay: 60 });
    const offered = await askSuggestions();
    if (offered.some((l) => /^(what|workflow|write)$/i.test(l))) throw new Error(`the version's placeholder offers words of the document: ${json(offered)}`);
    await suggestClosed();
    await page.keyboard.press("Tab"); // the description
    await page.keyboard.type("Triage tickets", { delay: 20 });
    await suggestClosed();
    await wb.escape();
    const text = await save(name, "");
    const metadata = JSON.parse(text).metadata;
    if (metadata.version !== "wh" || metadata.description !== "Triage tickets") throw new Error(`metadata is ${json(metadata)}`);
  });

  await run("completing 3: a YAML and a JSON file that are not LWIR keep VS Code's word suggestions", async () => {
    for (const [name, text, line, col] of [
      ["notes.yaml", "title: Classify the tickets\nnext: \n", 2, 7],
      ["notes.json", '{\n  "title": "Classify the tickets",\n  "next": ""\n}\n', 3, 12],
    ]) {
      await fresh(name, text);
      await wb.goto(line, col);
      await page.keyboard.type("Cla", { delay: 60 });
      const offered = await askSuggestions();
      if (!offered.includes("Classify")) throw new Error(`${name}: the word "Classify" is not offered: ${json(offered)}`);
      await suggestClosed();
    }
  });

  // ---- `{` + Enter: as empty as an empty file ----------------------------------------------------------
  await run("completing 4: `{` + Enter in a new LWIR JSON file: one info notice, no error; Ctrl+Space offers \"New workflow\" first; accepted, the braces make way and the workflow is valid", async () => {
    const name = "braces.lwir.json";
    await fresh(name, "");
    await wb.showProblems();
    await page.locator(".monaco-editor.focused").click().catch(() => {});
    await wb.command("View: Focus Active Editor Group");
    await page.keyboard.type("{");
    await page.keyboard.press("Enter");
    await page.locator(LWIR_STATUS, { hasText: /^\s*LWIR: empty\s*$/ }).waitFor();
    const rows = await page.evaluate(problemRows);
    const mine = rows.filter((r) => r.code.includes("lwir") || r.source === "lwir");
    if (mine.length !== 1 || !/empty_document/.test(mine[0].code)) throw new Error(`the Problems panel lists ${json(rows)}`);
    const offered = await askSuggestions();
    if (offered[0] !== "New workflow") throw new Error(`the first suggestion is not "New workflow": ${json(offered)}`);
    await page.keyboard.press("Enter");
    await page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
    await page.keyboard.type("braces");
    await wb.escape();
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
    const text = await save(name, "");
    const r = cliReport([name], workspace).files[0];
    if (!r.workflowVersion) throw new Error(`the CLI finds the saved workflow invalid: ${json([...r.parseErrors, ...r.findings])}\n${text}`);
    if (!text.startsWith('{\n  "apiVersion"')) throw new Error(`the braces did not make way:\n${text}`);
    await wb.hidePanel();
  });

  // ---- a skeleton keeps the type checks on -------------------------------------------------------------
  await run("completing 5: the `input` completion accepted as it comes: a read of a property it does not declare is warned on", async () => {
    const name = "skeleton.lwir.yaml";
    await fresh(name, NO_INPUT_YAML);
    const blank = lineOf(NO_INPUT_YAML, /^$/);
    await wb.goto(blank + 1, 1);
    await acceptSuggestion("input");
    await wb.escape(); // every placeholder as it came
    await page.keyboard.press("Control+Home");
    const text = await save(name, NO_INPUT_YAML);
    await wb.showProblems();
    const want = [{ severity: "warning", code: "lwir.unknown_property" }];
    try {
      await page.waitForFunction((w) => {
        const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")].filter((r) => r.querySelector(".marker-icon"));
        return rows.length === 1 && (rows[0].querySelector(".marker-code")?.textContent ?? "").includes(w[0].code);
      }, want);
    } catch (e) {
      throw new Error(`expected one warning lwir.unknown_property for input.topci; the panel lists ${json(await page.evaluate(problemRows))} (${e.message.split("\n")[0]})\n${text}`);
    }
    await wb.hidePanel();
  });

  // ---- `{{` in a JSON string; Enter in a YAML step -----------------------------------------------------
  await run("completing 6: `{{` typed in a JSON string of an LWIR file closes to `{{ | }}` (the cursor inside), as in YAML; not in another JSON file", async () => {
    const lwir = "release-notes.lwir.json";
    await closeAll();
    await wb.open(lwir);
    const before = readFileSync(file(lwir), "utf8");
    const i = lineOf(before, /"prompt": "/);
    const line = before.split("\n")[i];
    await wb.goto(i + 1, line.indexOf('"prompt": "') + '"prompt": "'.length + 1);
    await page.keyboard.type("{{", { delay: 80 });
    await page.keyboard.type("input.repo", { delay: 30 });
    await suggestClosed();
    await wb.escape();
    // the closing lands a moment after the keys (the extension host's edit; later on a busy machine)
    await page.locator(".view-line", { hasText: /\{\{\s+input\.repo\s+\}\}Release/ }).first().waitFor({ timeout: 5_000 }).catch(() => {});
    const text = await save(lwir, before);
    const typed = text.split("\n")[i];
    if (!typed.includes('"prompt": "{{ input.repo }}')) throw new Error(`the typed line is ${json(typed)}`);
    // the whole expression typed at a person's speed: the keys type over the closing, so it is there once
    await fresh(lwir, before);
    await wb.goto(i + 1, line.indexOf('"prompt": "') + '"prompt": "'.length + 1);
    await page.keyboard.type("{{ input.repo }}", { delay: 90 });
    await suggestClosed();
    await wb.escape();
    // (what was typed twice is removed from the extension host: a moment later)
    await page.locator(".view-line", { hasText: /"\{\{\s\binput\.repo\s\}\}Release/ }).first().waitFor({ timeout: 5_000 }).catch(() => {});
    const whole = (await save(lwir, before)).split("\n")[i];
    if (!whole.includes('"prompt": "{{ input.repo }}Release')) throw new Error(`typing the whole {{ input.repo }} gave ${json(whole)}`);
    await fresh(lwir, before);
    // YAML, where VS Code closes the braces itself: the same `{{ | }}`
    const yaml = "braces.lwir.yaml";
    await fresh(yaml, ENTER_YAML);
    const p = lineOf(ENTER_YAML, /prompt: "/);
    await wb.goto(p + 1, ENTER_YAML.split("\n")[p].indexOf('"') + 2);
    await page.keyboard.type("{{", { delay: 80 });
    await page.keyboard.type("input.ticket", { delay: 30 });
    await suggestClosed();
    await wb.escape();
    await page.locator(".view-line", { hasText: /\{\{\s+input\.ticket\s+\}\}Classify/ }).first().waitFor({ timeout: 5_000 }).catch(() => {});
    const yamlLine = (await save(yaml, ENTER_YAML)).split("\n")[p];
    if (!yamlLine.includes('prompt: "{{ input.ticket }}Classify')) throw new Error(`in YAML the typed line is ${json(yamlLine)}`);
    await fresh(yaml, ENTER_YAML);
    await wb.goto(p + 1, ENTER_YAML.split("\n")[p].indexOf('"') + 2);
    await page.keyboard.type("{{ input.ticket }}", { delay: 90 });
    await suggestClosed();
    await wb.escape();
    await page.locator(".view-line", { hasText: /"\{\{\s\binput\.ticket\s\}\}Classify/ }).first().waitFor({ timeout: 5_000 }).catch(() => {});
    const wholeYaml = (await save(yaml, ENTER_YAML)).split("\n")[p];
    if (!wholeYaml.includes('prompt: "{{ input.ticket }}Classify')) throw new Error(`in YAML typing the whole {{ input.ticket }} gave ${json(wholeYaml)}`);
    // another JSON file: nothing added
    const other = "plain.json";
    await fresh(other, '{\n  "text": ""\n}\n');
    await wb.goto(2, 12);
    await page.keyboard.type("{{", { delay: 80 });
    await suggestClosed();
    const plain = await save(other, '{\n  "text": ""\n}\n');
    if (plain.split("\n")[1] !== '  "text": "{{"') throw new Error(`in plain.json typing {{ gave ${json(plain.split("\n")[1])}`);
  });

  await run("completing 7: Enter at the end of a YAML step's lines indents to where the next key goes (after `- id: classify`: the step's key column)", async () => {
    const name = "enter.lwir.yaml";
    await fresh(name, ENTER_YAML);
    const lines = ENTER_YAML.split("\n");
    const cases = [
      [/^ {2}- id: classify$/, 5],
      [/^ {4}uses: ai\.generate$/, 5],
      [/^ {4}with:$/, 7],
      [/^ {6}model: gpt-4o$/, 7],
      [/^ {4}output:$/, 7],
    ];
    const wrong = [];
    for (const [re, col] of cases) {
      const i = lines.findIndex((l) => re.test(l));
      await wb.goto(i + 1, lines[i].length + 1);
      await page.keyboard.press("Enter");
      await suggestClosed();
      // the aid's edit follows the key from the extension host: a moment later
      await wb.waitForCursor(i + 2, col, 3_000).catch(() => {});
      const at = await wb.cursor();
      if (at.line !== i + 2 || at.col !== col) wrong.push(`after ${json(lines[i])}: Ln ${at.line}, Col ${at.col}, expected Ln ${i + 2}, Col ${col}`);
      await page.keyboard.press("Control+z");
      await page.locator(".tab.active.dirty").waitFor({ state: "detached" }).catch(() => {});
    }
    if (wrong.length) throw new Error(wrong.join("; "));
  });

  // ---- one outline for a JSON file --------------------------------------------------------------------
  await run("completing 8: a JSON LWIR file has one outline and no provider level in the breadcrumbs", async () => {
    const name = "release-notes.lwir.json";
    await closeAll();
    await wb.open(name);
    await page.locator(LWIR_STATUS, { hasText: /wfver_/ }).waitFor();
    const text = readFileSync(file(name), "utf8");
    await wb.command("Explorer: Focus on Outline View");
    const outline = page.locator(".outline-pane");
    await outline.locator(".monaco-list-row").first().waitFor();
    const topKeys = Object.keys(JSON.parse(text));
    // the list draws only the rows in view (the sidebar's outline is short): those must be the document's first keys
    await outline.locator('.monaco-list-row[aria-level="1"] .label-name', { hasText: new RegExp(`^${escapeRe(topKeys[2])}$`) }).first().waitFor();
    const top = await outline.locator('.monaco-list-row[aria-level="1"] .label-name').allTextContents();
    const names = top.map((t) => t.trim());
    if (names.some((n) => /^(LWIR|JSON Language Features)$/.test(n)) || JSON.stringify(names) !== JSON.stringify(topKeys.slice(0, names.length))) {
      throw new Error(`the outline's top level is ${json(names)}, expected the document's keys ${json(topKeys)}`);
    }
    await page.locator(".monaco-editor").first().click();
    const i = lineOf(text, /"prompt": "/);
    await wb.goto(i + 1, 8);
    const crumbs = page.locator(".breadcrumbs-control .monaco-breadcrumb-item");
    await crumbs.filter({ hasText: /^\s*steps\s*$/ }).first().waitFor();
    const items = (await crumbs.allTextContents()).map((t) => t.trim());
    if (items.some((t) => /^(LWIR|JSON Language Features)$/.test(t))) throw new Error(`the breadcrumbs show a provider level: ${json(items)}`);
    await closeAll();
  });
}
