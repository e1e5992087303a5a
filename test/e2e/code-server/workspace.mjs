// Issue #16 in the real workbench: problems of LWIR files that were never opened are in the Problems
// panel (the server's workspace scan, pulled by VS Code as workspace diagnostics), and a `git checkout`
// that breaks a file on disk updates them (VS Code's file watcher → workspace/didChangeWatchedFiles).
// The workspace copy gets a git repository of its own before code-server starts (prepareWorkspace);
// the checks run first, then switch `lwir.validation.scope` to "openFiles" in the folder's settings so
// that the later checks, written for open documents, see only the problems of the files they open.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Never opened during the run: invalid from the start. */
export const UNOPENED = "team/unopened.lwir.json";
/** Valid on the main branch, broken on the branch `teammate`. */
export const HANDOFF = "team/handoff.lwir.yaml";
const BRANCH = "teammate";

/** A valid example broken: its gpt-4o-mini models replaced by one outside the permissions. */
const breakIt = (valid) => {
  const broken = valid.replace(/(model"?: "?)gpt-4o-mini/g, "$1gpt-5-large");
  if (broken === valid) throw new Error("prepareWorkspace: the example to break has no gpt-4o-mini model");
  return broken;
};
function git(workspace, ...args) {
  execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: workspace, stdio: "pipe" });
}

/** Before code-server starts: the two files, and a repository with the branch that breaks one. */
export function prepareWorkspace(workspace) {
  mkdirSync(join(workspace, "team"), { recursive: true });
  writeFileSync(join(workspace, UNOPENED), breakIt(readFileSync(join(workspace, "release-notes.lwir.json"), "utf8")));
  const valid = readFileSync(join(workspace, "support-triage.lwir.yaml"), "utf8");
  writeFileSync(join(workspace, HANDOFF), valid);
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "workflows");
  git(workspace, "checkout", "-q", "-b", BRANCH);
  writeFileSync(join(workspace, HANDOFF), breakIt(valid));
  git(workspace, "commit", "-q", "-am", "teammate's change");
  git(workspace, "checkout", "-q", "main");
}

/** In-page: the Problems panel's rows of one file (by its name), as problemRows() gives them. */
export function problemRowsOf([fileName, expected]) {
  const text = (el, sel) => (el.querySelector(sel)?.textContent ?? "").replace(/\s+/g, " ").trim();
  const rows = [];
  let current;
  for (const row of document.querySelectorAll(".markers-panel .monaco-list-row")) {
    if (!row.querySelector(".marker-icon")) {
      current = text(row, ".label-name");
      continue;
    }
    if (current !== fileName) continue;
    const where = /\[Ln (\d+), Col (\d+)\]/.exec(text(row, ".marker-line"));
    rows.push({ message: text(row, ".marker-message"), source: text(row, ".marker-source"), code: text(row, ".marker-code"), line: where ? Number(where[1]) : null, col: where ? Number(where[2]) : null });
  }
  rows.sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
  return expected === undefined ? rows : JSON.stringify(rows) === JSON.stringify(expected);
}

export async function workspaceChecks({ page, wb, workspace, run, helpers }) {
  const { expectedRows, report } = helpers;
  const name = (relative) => relative.slice(relative.lastIndexOf("/") + 1);
  const byFile = async (relative, rows) => {
    try {
      await page.waitForFunction(problemRowsOf, [name(relative), rows], { timeout: 60_000 });
    } catch (e) {
      const actual = await page.evaluate(problemRowsOf, [name(relative)]).catch(() => "(page gone)");
      const panel = await page.evaluate(() => [...document.querySelectorAll(".markers-panel .monaco-list-row")].map((r) => r.textContent.replace(/\s+/g, " ").trim())).catch(() => []);
      throw new Error(`Problems panel rows of ${relative} differ from the CLI's findings\n  expected ${JSON.stringify(rows)}\n  got      ${JSON.stringify(actual)}\n  panel    ${JSON.stringify(panel)}\n  (${e.message.split("\n")[0]})`);
    }
  };
  // The panel's list renders only the rows in view: maximized, every file's rows fit.
  let maximized = false;
  const showProblems = async () => {
    await wb.showProblems();
    if (!maximized) {
      await wb.command("View: Toggle Maximized Panel");
      maximized = true;
    }
  };
  const restorePanel = async () => {
    if (!maximized) return;
    await wb.escape();
    await wb.command("View: Toggle Maximized Panel");
    maximized = false;
  };

  await run("a workflow that was never opened shows its problems in the Problems panel", async () => {
    const rows = expectedRows(report(UNOPENED));
    if (rows.length === 0) throw new Error(`the CLI reports no problem in ${UNOPENED}`);
    await wb.escape();
    await showProblems();
    await byFile(UNOPENED, rows);
    if ((await page.locator(".tab", { hasText: name(UNOPENED) }).count()) > 0) throw new Error(`${UNOPENED} was opened`);
  });

  await run("`git checkout` of a branch that breaks a file updates its problems; checking out main clears them", async () => {
    await showProblems();
    await byFile(HANDOFF, []);
    git(workspace, "checkout", "-q", BRANCH);
    const rows = expectedRows(report(HANDOFF));
    if (rows.length < 2) throw new Error(`the CLI reports ${rows.length} problems in the teammate's ${HANDOFF}`);
    await byFile(HANDOFF, rows);
    git(workspace, "checkout", "-q", "main");
    await byFile(HANDOFF, []);
  });

  await run('lwir.validation.scope "openFiles" clears the problems of files that are not open', async () => {
    mkdirSync(join(workspace, ".vscode"), { recursive: true });
    writeFileSync(join(workspace, ".vscode", "settings.json"), JSON.stringify({ "lwir.validation.scope": "openFiles" }, null, 2));
    try {
      await showProblems();
      await byFile(UNOPENED, []);
    } finally {
      await restorePanel();
    }
  });
}
