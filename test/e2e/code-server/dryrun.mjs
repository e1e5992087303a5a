// Issue #24's "LWIR: Dry run" in the real workbench, with the graph view open beside the workflow: the
// command from the palette opens the trace (the CLI's own text for the same workflow and scenario, read
// whole through the clipboard), and the graph draws the run over the nodes: a visit count badge per step
// (compared with the CLI's trace), the edge each decision chose marked "chosen", the step that failed
// with its error in its hover, the steps never reached dimmed; an edit marks the overlay stale. "LWIR: Dry
// run a scenario…" lists the scenarios, and the one picked runs and stays current.
// Run in code-server (drive.mjs) and in VS Code for the Web (test/e2e/vscode/graph-web.mjs), where the
// language server runs in a web worker: the same checks prove the dry run works in the browser build.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml, stringify as yamlOf } from "yaml";
import { CLI } from "../lib.mjs";

const LOOP = "support-triage.lwir.yaml";
const LOOP_SCENARIO = "two tickets, one redrafted";
/** release-notes.lwir.json and its scenarios, the refused one first (so it is the current scenario). */
export const REFUSED = "release-refused.lwir.json";
const REFUSED_SCENARIOS = "release-refused.lwir.test.yaml";

/** Writes the second workflow and its scenarios into the workspace (before a workbench loads it: test-web lists no file added later). */
export function placeDryRunFiles(workspace) {
  writeFileSync(join(workspace, REFUSED), readFileSync(join(workspace, "release-notes.lwir.json"), "utf8"));
  const scenarios = parseYaml(readFileSync(join(workspace, "release-notes.lwir.test.yaml"), "utf8")).scenarios;
  writeFileSync(join(workspace, REFUSED_SCENARIOS), yamlOf({ scenarios: [...scenarios.slice(1), scenarios[0]] }));
}

/** `lwir run --dry` of a workspace file in one scenario: the text, and the JSON trace. */
function cliRun(workspace, file, scenario) {
  const run = (format) => spawnSync(process.execPath, [CLI, "run", "--dry", "--scenario", scenario, "--format", format, file], { cwd: workspace, encoding: "utf8" });
  const text = run("text");
  const json = run("json");
  if (json.stderr || text.stderr) throw new Error(`lwir run --dry ${file}: ${json.stderr || text.stderr}`);
  return { text: text.stdout, trace: JSON.parse(json.stdout) };
}

/** The step path of a trace entry without item keys and visits (the graph's node id). */
const nodeOf = (path) => path.replace(/\.visit\[\d+\]/g, "").replace(/\[[^\]]*\]/g, "");

export async function dryRunChecks({ page, wb, workspace, run }) {
  if (!existsSync(join(workspace, REFUSED_SCENARIOS))) placeDryRunFiles(workspace);
  const view = () => page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  const closeAll = async () => {
    await wb.escape();
    await wb.command("View: Close All Editors");
  };
  /** The workflow open, its graph drawn beside it, the editor focused. */
  const openWithGraph = async (name) => {
    await closeAll();
    // from the explorer: VS Code for the Web's quick open has no file search in test-web
    await wb.openFromExplorer(name);
    await wb.command("LWIR: Open Graph");
    await view().locator("svg#canvas g[data-id]").first().waitFor({ timeout: 60_000 });
    await page.locator(".tab", { hasText: name }).first().click();
    await page.locator(".monaco-editor.focused").waitFor();
  };
  /**
   * The trace document's whole text (through the clipboard: the editor draws only the lines in view). With
   * `holding`: read again until it holds that (a trace tab left by an earlier run is updated in place, a
   * moment after the overlay).
   */
  const traceText = async (name, holding) => {
    const tab = page.locator(".tab", { hasText: `${name}.dry-run.txt` }).first();
    await tab.waitFor({ timeout: 30_000 });
    for (const until = Date.now() + 30_000; ;) {
      await tab.click();
      await page.locator(".monaco-editor.focused").waitFor();
      await page.evaluate(() => navigator.clipboard.writeText(""));
      await page.keyboard.press("Control+a");
      await page.keyboard.press("Control+c");
      await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
      const text = await page.evaluate(() => navigator.clipboard.readText());
      if (holding === undefined || text.includes(holding) || Date.now() > until) return text;
      await page.waitForTimeout(250);
    }
  };
  /** The CLI's trace text from its second line (the first names the file as the command line was given it). */
  const sameAsCli = (doc, cliText, what) => {
    const body = cliText.slice(cliText.indexOf("\n") + 1);
    if (!doc.includes(body)) throw new Error(`${what}: the trace document does not hold the CLI's trace.\n--- document:\n${doc.slice(0, 1500)}\n--- CLI:\n${body.slice(0, 1500)}`);
  };

  await run("dry run: LWIR: Dry run from the palette shows the CLI's trace; the graph marks each step's visit count and the case each decision chose", async () => {
    const cli = cliRun(workspace, LOOP, LOOP_SCENARIO);
    await openWithGraph(LOOP);
    await wb.command("LWIR: Dry run");
    await view().locator('body[data-dry-run="current"]').waitFor({ timeout: 30_000 });
    // a badge on every step that ran, with the CLI's count of its runs
    const runs = new Map();
    for (const s of cli.trace.steps) runs.set(nodeOf(s.path), (runs.get(nodeOf(s.path)) ?? 0) + 1);
    const badges = await view().locator("g[data-id] > g.dry-badge").evaluateAll((els) => els.map((e) => [e.parentElement.getAttribute("data-id"), e.querySelector("text").textContent]));
    const want = [...runs].map(([id, n]) => [id, `ran ${n}×`]).sort();
    if (JSON.stringify(badges.sort()) !== JSON.stringify(want)) throw new Error(`badges ${JSON.stringify(badges)}, the CLI's runs ${JSON.stringify(want)}`);
    if (!runs.has("triage.draft") || runs.get("triage.draft") < 2) throw new Error("the scenario should run the draft more than once");
    // route chose draft once (default: the loop back) and end twice (case 0): both edges marked, in text too
    const chosen = await view().locator("g.edge.dry-chosen").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-from")}->${e.getAttribute("data-to")}:${e.querySelector(".dry-chosen-label text")?.textContent}`));
    const expected = ["triage.route->triage.[end]:chosen 2×", "triage.route->triage.draft:chosen"];
    if (JSON.stringify(chosen.sort()) !== JSON.stringify(expected)) throw new Error(`chosen edges ${JSON.stringify(chosen)}, expected ${JSON.stringify(expected)}`);
    await view().locator("#dryrun", { hasText: `Dry run, scenario "${LOOP_SCENARIO}" (support-triage.lwir.test.yaml): completed` }).waitFor();
    sameAsCli(await traceText(LOOP), cli.text, LOOP);
    await wb.screenshot("dry-run-graph.png");
  });

  await run("dry run: LWIR: Dry run a scenario… lists the scenarios file's scenarios; the one picked runs (the CLI's trace for it) and the graph follows", async () => {
    const names = parseYaml(readFileSync(join(workspace, "support-triage.lwir.test.yaml"), "utf8")).scenarios.map((s) => s.name);
    const picked = names.at(-1);
    if (names.length < 2 || picked === LOOP_SCENARIO) throw new Error(`the example should have several scenarios: ${JSON.stringify(names)}`);
    const cli = cliRun(workspace, LOOP, picked);
    await openWithGraph(LOOP);
    await wb.command("LWIR: Dry run a scenario…", 3, { opensPick: true });
    const rows = page.locator(".quick-input-widget .monaco-list-row");
    await rows.first().waitFor();
    // a row's first label is its title (the generated input's detail line is a label of its own)
    const labels = await rows.evaluateAll((els) => els.map((e) => e.querySelector(".label-name")?.textContent ?? ""));
    const want = [...names, "The generated input"];
    if (JSON.stringify(labels.map((l) => l.trim())) !== JSON.stringify(want)) throw new Error(`the pick lists ${JSON.stringify(labels)}, the scenarios file has ${JSON.stringify(want)}`);
    await wb.screenshot("dry-run-scenario-pick.png");
    await wb.pick(rows.filter({ has: page.locator(".label-name", { hasText: picked }) }));
    await view().locator("#dryrun", { hasText: `Dry run, scenario "${picked}" (support-triage.lwir.test.yaml)` }).waitFor({ timeout: 30_000 });
    const runs = new Map();
    for (const s of cli.trace.steps) runs.set(nodeOf(s.path), (runs.get(nodeOf(s.path)) ?? 0) + 1);
    const badges = await view().locator("g[data-id] > g.dry-badge").evaluateAll((els) => els.map((e) => [e.parentElement.getAttribute("data-id"), e.querySelector("text").textContent]));
    const wantBadges = [...runs].map(([id, n]) => [id, `ran ${n}×`]).sort();
    if (JSON.stringify(badges.sort()) !== JSON.stringify(wantBadges)) throw new Error(`badges ${JSON.stringify(badges)}, the CLI's runs in "${picked}" ${JSON.stringify(wantBadges)}`);
    const doc = await traceText(LOOP, `scenario "${picked}"`);
    sameAsCli(doc, cli.text, `${LOOP} in "${picked}"`);
    await wb.screenshot("dry-run-scenario-trace.png");
    if (!doc.includes(`${names.length - 1} other scenarios: LWIR: Dry run a scenario…`)) throw new Error(`the trace's first line does not offer the other scenarios: ${doc.split("\n")[0]}`);
    // the picked scenario stays current: a plain LWIR: Dry run runs it again (the trace closed first, so the
    // text read is the new run's)
    await wb.command("View: Close Editor");
    await page.locator(".tab", { hasText: `${LOOP}.dry-run.txt` }).waitFor({ state: "detached" });
    await page.locator(".tab", { hasText: LOOP }).first().click();
    await page.locator(".monaco-editor.focused").waitFor();
    await wb.command("LWIR: Dry run");
    sameAsCli(await traceText(LOOP, `scenario "${picked}"`), cli.text, `${LOOP}, LWIR: Dry run after picking "${picked}"`);
  });

  await run("dry run: the step that failed is marked with its error in its hover, the step never reached is dimmed; an edit marks the overlay stale", async () => {
    const scenario = parseYaml(readFileSync(join(workspace, REFUSED_SCENARIOS), "utf8")).scenarios[0].name;
    const cli = cliRun(workspace, REFUSED, scenario);
    if (cli.trace.status !== "failed") throw new Error(`the CLI's run of ${REFUSED} does not fail`);
    await openWithGraph(REFUSED);
    await wb.command("LWIR: Dry run");
    await view().locator('body[data-dry-run="current"]').waitFor({ timeout: 30_000 });
    const failedAt = nodeOf(cli.trace.error.stepPath);
    const failed = view().locator(`g.dry-failed[data-id="${failedAt}"]`);
    await failed.waitFor({ state: "attached" });
    const badge = await failed.locator("g.dry-badge text").textContent();
    if (badge !== "✗ failed") throw new Error(`the failed step's badge reads ${JSON.stringify(badge)}`);
    const title = await failed.locator(":scope > title").textContent();
    if (!title.includes(cli.trace.error.message)) throw new Error(`the failed step's hover does not give the CLI's error ${JSON.stringify(cli.trace.error.message)}: ${JSON.stringify(title)}`);
    const ran = new Set(cli.trace.steps.map((s) => nodeOf(s.path)));
    const unreached = await view().locator("g.dry-unreached[data-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    const all = await view().locator("g.step[data-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    const want = all.filter((id) => !ran.has(id));
    if (want.length === 0 || JSON.stringify(unreached.sort()) !== JSON.stringify(want.sort())) throw new Error(`dimmed ${JSON.stringify(unreached)}, never reached by the CLI's run ${JSON.stringify(want)}`);
    sameAsCli(await traceText(REFUSED), cli.text, REFUSED);
    // an edit: the marks stay, the bar says they are of an earlier version
    await page.locator(".tab", { hasText: REFUSED }).first().click();
    await page.locator(".monaco-editor.focused").waitFor();
    await wb.goto(1, 1);
    await page.keyboard.press("End");
    await page.keyboard.type(" ");
    await view().locator('body[data-dry-run="stale"]').waitFor({ timeout: 30_000 });
    await view().locator("#dryrun.stale", { hasText: "the text has changed since" }).waitFor();
    if (await view().locator("g.dry-unreached[data-id]").count() !== want.length) throw new Error("the stale overlay lost its marks");
    await wb.command("File: Revert File");
  });
  await closeAll().catch(() => {});
}
