// Neovim (Debian's 0.7, headless) as an LSP client of dist/server.js over stdio: what a Neovim user sees must be
// what `lwir validate` reports, and completion, the quick fix, hover, definition and shutdown must work through
// Neovim's own LSP functions. lsp.lua gathers what the editor saw into one JSON report; the checks are here and,
// where Emacs makes them the same way, in ../lsp-editors.mjs (with the fixture and the editor runner).
//   node test/e2e/neovim/run.mjs
import { readFileSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { ROOT, log } from "../lib.mjs";
import {
  SHUTDOWN_LIMIT_MS, SHUTDOWN_WAIT_MS, checkCompletion, checkDiagnostics, checkHoverDefinitionLog, checkQuickFix,
  checkValidExamples, ms, sorted, startEditorPart,
} from "../lsp-editors.mjs";

const PART = "neovim";
const HERE = join(ROOT, "test", "e2e", PART);

const part = await startEditorPart({
  part: PART,
  packages: ["neovim"],
  // -u NONE -i NONE -n: no config, no shada, no swap files. lsp.lua quits by itself; the `cquit` after it only
  // runs when the script could not even load.
  command: "nvim",
  args: ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", `luafile ${join(HERE, "lsp.lua")}`, "-c", "cquit 3"],
  serverPids: (r) => [r.server_pid],
  // The server's stderr goes to Neovim's LSP log: keep its end for failure messages.
  collect: (home) => {
    try { return `\nlsp.log: ${readFileSync(join(home, "cache", "nvim", "lsp.log"), "utf8").slice(-1500)}`; } catch { return ""; }
  },
});
const { checks, fixture, r, leftovers, noPhaseError } = part;
/** What vim.diagnostic holds (columns converted back to UTF-16); the LSP code lives in user_data.lsp.code on 0.7. */
const shownShape = (d) => ({ code: d.lsp_code, message: d.message, severity: d.severity, range: d.range });

await checkDiagnostics(part, (doc, expected) => {
  for (const d of doc.shown) assert.equal(d.lsp_code, d.code, "user_data.lsp.code and code disagree");
  assert.deepEqual(sorted(doc.shown.map(shownShape)), expected, "vim.diagnostic differs from the CLI");
});

await checkValidExamples(part, (name) => `${name}: vim.diagnostic is not empty`);

await checkCompletion(part);

await checkQuickFix(part, {
  appliedWith: "apply_workspace_edit",
  sent: (ca, spec) => assert.ok(ca.sent.some((d) => d.code === spec.code && d.has_data), "the request did not carry the diagnostic with its data"),
  versioned: "buffer",
  shownAfter: (ca, remaining) => assert.deepEqual(sorted(ca.shown_after.map(shownShape)), remaining),
});

await checks.run("push diagnostics: Neovim does not pull, and the server pushed", () => {
  noPhaseError();
  assert.equal(r.client_pull_diagnostics, false, "this Neovim advertises textDocument.diagnostic");
  assert.equal(r.client_push_diagnostics, true);
  assert.equal(r.server_capabilities.diagnosticProvider, false, "diagnosticProvider advertised to a client that cannot pull");
  for (const d of fixture.docs) assert.ok(r.publishes.some((p) => p.uri === r.docs[d.name].uri), `no publish for ${d.name}`);
});

await checks.run("related information: sent, since Neovim supports it", () => {
  noPhaseError("diagnostics");
  assert.equal(r.client_related_information, true);
  // The undeclared read points at the step it reads.
  const d = r.docs[fixture.broken].raw.find((x) => x.code === "step.undeclared_dependency");
  const target = fixture.fetchDiffId;
  assert.ok(d?.relatedInformation?.some((i) => i.location.uri === r.docs[fixture.broken].uri && i.location.range.start.line === target.line),
    `no related location on fetch-diff's id: ${JSON.stringify(d?.relatedInformation)}`);
});

await checkHoverDefinitionLog(part);

await checks.run("shutdown: the server exits by itself after shutdown/exit", () => {
  noPhaseError("shutdown");
  const s = r.shutdown;
  assert.ok(s.exited, `the server was still running ${SHUTDOWN_WAIT_MS} ms after vim.lsp.stop_client`);
  assert.deepEqual({ code: s.code, signal: s.signal }, { code: 0, signal: 0 });
  assert.ok(s.ms < SHUTDOWN_LIMIT_MS, `took ${s.ms} ms`);
  assert.ok(s.client_gone);
  assert.deepEqual(leftovers, [], "server process still running after Neovim quit");
});

log(PART, `init ${ms(r.init_ms)}, first publish ${ms(r.publishes[0]?.at_ms)}, script ${ms(r.total_ms)}, shutdown ${ms(r.shutdown?.ms)}`);
process.exit(checks.finish());
