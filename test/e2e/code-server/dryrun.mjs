// Issue #24's "LWIR: Dry run" in the real workbench, with the graph view open beside the workflow: the
// command from the palette opens the trace (the CLI's own text for the same workflow and scenario, read
// whole through the clipboard), and the graph draws the run over the nodes: a visit count badge per step
// (compared with the CLI's trace), the edge each decision chose marked "chosen", the step that failed
// with its error in its hover, the steps never reached dimmed; an edit marks the overlay stale.
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
  /** The trace document's whole text (through the clipboard: the editor draws only the lines in view). */
  const traceText = async (name) => {
    const tab = page.locator(".tab", { hasText: `${name}.dry-run.txt` }).first();
    await tab.waitFor({ timeout: 30_000 });
    await tab.click();
    await page.locator(".monaco-editor.focused").waitFor();
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    return page.evaluate(() => navigator.clipboard.readText());
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
