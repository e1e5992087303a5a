// bench/results.json → bench/RESULTS.md: the series tables and every target of issue 7, met or not,
// each judged on ratios measured in the same run. `node bench/report.mjs` re-renders from results.json.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const fmt = (x, d = 1) => (x === undefined || x === null || Number.isNaN(x) ? "–" : Number(x).toFixed(d));
const ms = (x) => (x === undefined ? "–" : x >= 100 ? fmt(x, 0) : x >= 10 ? fmt(x, 1) : fmt(x, 2));

function find(series, tool, name, format, steps) {
  return series.find((s) => s.tool.startsWith(tool) && s.name.startsWith(name) && s.format === format && s.steps === steps);
}

export function targets(results) {
  const S = results.series;
  const out = [];
  const add = (target, figure, met) => out.push({ target, figure, met });
  const na = (target, why) => out.push({ target, figure: why, met: undefined });

  // JSON fresh, 1,000 steps
  const jFresh = find(S, "ours", "text → diagnostics, fresh", "json", 1000);
  const jls = find(S, "vscode-json-languageservice", "parse + schema", "json", 1000);
  if (jFresh) add("JSON 1,000 fresh: text → diagnostics ≤ 1.5× jsonc parseTree", `${fmt(jFresh.ratio_to_floor, 2)}× (${ms(jFresh.median_ms)} ms vs ${ms(jFresh.floor.median_ms)} ms)`, jFresh.ratio_to_floor <= 1.5);
  else na("JSON 1,000 fresh ≤ 1.5× parseTree", "not measured");
  if (jFresh && jls) {
    const x = jls.ratio_to_floor / jFresh.ratio_to_floor;
    add("JSON 1,000 fresh: ≥ 2× faster than vscode-json-languageservice (schema only)", `${fmt(x, 2)}× faster (${fmt(jls.ratio_to_floor, 2)}× vs ${fmt(jFresh.ratio_to_floor, 2)}× parseTree)`, x >= 2);
  }

  // YAML fresh and edit, 1,000 steps
  const yFresh = find(S, "ours", "text → diagnostics, fresh", "yaml", 1000);
  const yEdit = find(S, "ours", "text → diagnostics, one-character", "yaml", 1000);
  const yls = find(S, "yaml-language-server (API)", "doValidation", "yaml", 1000);
  if (yFresh) add("YAML 1,000 fresh: text → diagnostics ≤ 1× yaml parseDocument", `${fmt(yFresh.ratio_to_floor, 2)}× (${ms(yFresh.median_ms)} ms vs ${ms(yFresh.floor.median_ms)} ms)`, yFresh.ratio_to_floor <= 1);
  if (yFresh && yls) {
    const x = yls.ratio_to_floor / yFresh.ratio_to_floor;
    add("YAML 1,000 fresh: ≥ 1.5× faster than yaml-language-server doValidation", `${fmt(x, 2)}× faster (${fmt(yls.ratio_to_floor, 2)}× vs ${fmt(yFresh.ratio_to_floor, 2)}× parseDocument)`, x >= 1.5);
  }
  if (yEdit) add("YAML 1,000 one-character edit: ≤ 0.5× parseDocument", `${fmt(yEdit.ratio_to_floor, 3)}× (${ms(yEdit.median_ms)} ms vs ${ms(yEdit.floor.median_ms)} ms)`, yEdit.ratio_to_floor <= 0.5);

  // completion right after an edit, 1,000 steps
  const oursCY = find(S, "ours (LSP", "completion right after", "yaml", 1000);
  const oursCJ = find(S, "ours (LSP", "completion right after", "json", 1000);
  const ylsC = find(S, "yaml-language-server (LSP, 200", "completion right after", "yaml", 1000)
    ?? find(S, "yaml-language-server (LSP", "completion right after", "yaml", 1000);
  if (oursCY && ylsC) {
    const x = ylsC.ratio_to_floor / oursCY.ratio_to_floor;
    add("Completion after an edit, YAML 1,000 (LSP): ≥ 20× faster than yaml-language-server", `${fmt(x, 0)}× faster (${ms(oursCY.median_ms)} ms vs ${ms(ylsC.median_ms)} ms)`, x >= 20);
  } else na("Completion YAML ≥ 20× faster than yaml-language-server", "not measured");
  if (oursCY && oursCJ) add("Completion after an edit, 1,000 (LSP): JSON no slower than YAML", `JSON ${ms(oursCJ.median_ms)} ms, YAML ${ms(oursCY.median_ms)} ms`, oursCJ.median_ms <= oursCY.median_ms * 1.1);

  // LSP within 2× of in process
  for (const format of ["json", "yaml"]) {
    const lsp = find(S, "ours (LSP", "edit → diagnostics", format, 1000);
    const inProc = find(S, "ours", "text → diagnostics, one-character", format, 1000);
    if (lsp && inProc) {
      const x = lsp.ratio_to_floor / inProc.ratio_to_floor;
      add(`${format.toUpperCase()} 1,000: edit → diagnostics over LSP (delay 0) ≤ 2× in process`, `${fmt(x, 2)}× (${ms(lsp.median_ms)} ms vs ${ms(inProc.median_ms)} ms)`, x <= 2);
    }
  }

  // the workflow graph (issue 15)
  const layout = find(S, "ours", "graph layout (dagre)", "yaml", 1000);
  const both = find(S, "ours", "graph model + layout", "yaml", 1000);
  const same = find(S, "ours", "graph after an edit that changes no edge", "yaml", 1000);
  const elk = find(S, "elkjs", "graph layout (elkjs", "yaml", 1000);
  if (layout) add("Graph 1,000: layout ≤ 1× yaml parseDocument", `${fmt(layout.ratio_to_floor, 2)}× (${ms(layout.median_ms)} ms vs ${ms(layout.floor.median_ms)} ms)${elk ? `; elkjs ${fmt(elk.ratio_to_floor, 2)}×` : ""}`, layout.ratio_to_floor <= 1);
  if (both) add("Graph 1,000: model + layout (a redraw that lays out again), for reference", `${fmt(both.ratio_to_floor, 2)}×`, undefined);
  if (same) add("Graph 1,000: an edit that changes no edge (model + shape key, layout reused) ≤ 1.5× parseDocument", `${fmt(same.ratio_to_floor, 3)}× (${ms(same.median_ms)} ms)`, same.ratio_to_floor <= 1.5);
  const redrawn = find(S, "ours", "graph: edit that changes an edge → provisional", "yaml", 1000);
  const edgeLsp = find(S, "ours", "graph: edit that changes an edge → lwir/graph answer (new layout)", "yaml", 1000);
  const during = find(S, "ours", "graph: completion sent with that edit", "yaml", 1000);
  if (redrawn) add("Graph 1,000 over LSP: an edit that changes an edge → the redrawn graph (its edges on the last layout) ≤ 1.5× parseDocument", `${fmt(redrawn.ratio_to_floor, 2)}× (${ms(redrawn.median_ms)} ms)`, redrawn.ratio_to_floor <= 1.5);
  if (edgeLsp) add("Graph 1,000 over LSP: an edit that changes an edge → the new layout, for reference", `${fmt(edgeLsp.ratio_to_floor, 2)}× (${ms(edgeLsp.median_ms)} ms)`, undefined);
  if (edgeLsp && during) add("Graph 1,000 over LSP: a completion sent with an edit that changes an edge is not held up by the layout (for reference)", `completion ${ms(during.median_ms)} ms, new layout ${ms(edgeLsp.median_ms)} ms`, undefined);

  // growth 5,000 / 1,000 against the floor's own
  for (const s5 of S.filter((s) => s.steps === 5000 && s.tool.startsWith("ours"))) {
    const s1 = S.find((s) => s.steps === 1000 && s.tool === s5.tool && s.name === s5.name && s.format === s5.format);
    if (!s1) continue;
    const growth = s5.median_ms / s1.median_ms;
    const floorGrowth = s5.floor.median_ms / s1.floor.median_ms;
    const x = growth / floorGrowth;
    add(`Growth 5,000/1,000 ≤ 1.2× the floor's: ${s5.tool}, ${s5.name}, ${s5.format}`, `${fmt(growth, 2)} vs floor ${fmt(floorGrowth, 2)} → ${fmt(x, 2)}×`, x <= 1.2);
  }

  // memory, 5,000 steps
  const memJ = find(S, "ours (LSP", "completion right after", "json", 5000);
  const memY = find(S, "ours (LSP", "completion right after", "yaml", 5000);
  const memYls = find(S, "yaml-language-server (LSP", "completion right after", "yaml", 5000);
  if (memJ) {
    add("Memory 5,000 JSON: server RSS after opening < 250 MB", `${fmt(memJ.rss_after_open_mb, 0)} MB`, memJ.rss_after_open_mb < 250);
    add("Memory 5,000 JSON: after 30 edits and completions ≤ 1.5× after opening", `${fmt(memJ.rss_after_edits_mb, 0)} / ${fmt(memJ.rss_after_open_mb, 0)} MB = ${fmt(memJ.rss_after_edits_mb / memJ.rss_after_open_mb, 2)}×`, memJ.rss_after_edits_mb <= 1.5 * memJ.rss_after_open_mb);
  } else na("Memory 5,000 (needs the full run)", "not measured in this run");
  if (memY) {
    const limit = memYls ? memYls.rss_after_open_mb : 344;
    add("Memory 5,000 YAML: server RSS after opening < yaml-language-server's", `${fmt(memY.rss_after_open_mb, 0)} MB vs ${fmt(limit, 0)} MB${memYls ? "" : " (PEERS.md)"}`, memY.rss_after_open_mb < limit);
    add("Memory 5,000 YAML: after 30 edits and completions ≤ 1.5× after opening", `${fmt(memY.rss_after_edits_mb, 0)} / ${fmt(memY.rss_after_open_mb, 0)} MB = ${fmt(memY.rss_after_edits_mb / memY.rss_after_open_mb, 2)}×`, memY.rss_after_edits_mb <= 1.5 * memY.rss_after_open_mb);
  }
  startupTargets(S, add, na);
  workspaceTargets(S, add);
  hugeTargets(S, add);
  return out;
}

/** Issue 23's target: the CLI on a 20,000+ step YAML workflow within 3× of the same workflow as JSON. */
function hugeTargets(S, add) {
  for (const s of S.filter((x) => x.group === "huge" && x.format.startsWith("yaml") && x.steps >= 20000)) {
    add(`CLI, one ${s.steps.toLocaleString("en")}-step workflow: ${s.format} (${fmt(s.file_mb, 0)} MB) ≤ 3× the same as JSON`,
      `${fmt(s.ratio_to_floor, 2)}× (${ms(s.median_ms)} ms vs ${ms(s.floor.median_ms)} ms; peak ${fmt(s.peak_mb, 0)} MB vs ${fmt(s.floor_peak_mb, 0)} MB)`, s.ratio_to_floor <= 3);
  }
}

/** Issue 16's workspace targets: the scan against the CLI on the same folder; typing while a scan runs. */
function workspaceTargets(S, add) {
  const scan = find(S, "ours (LSP)", "workspace scan of", "mixed", 1000);
  if (scan) add("Workspace: scan of 1,000 files → all diagnostics ≤ 1.3× `lwir validate --format json` on the same folder", `${fmt(scan.ratio_to_floor, 2)}× (${ms(scan.median_ms)} ms vs ${ms(scan.floor.median_ms)} ms)`, scan.ratio_to_floor <= 1.3);
  for (const name of ["edit → diagnostics during a 1,000-file scan", "completion right after an edit during a 1,000-file scan"]) {
    const s = find(S, "ours (LSP)", name, "json", 1000);
    if (s) add(`Workspace: ${name} ≤ 1.5× the same with no scan`, `${fmt(s.ratio_to_floor, 2)}× (${ms(s.median_ms)} ms vs ${ms(s.floor.median_ms)} ms)`, s.ratio_to_floor <= 1.5);
  }
}

/** Issue 16's start-up targets: cold start against yaml-language-server and against node + warm; the CLI per file. */
function startupTargets(S, add, na) {
  for (const format of ["json", "yaml"]) {
    const cold = S.filter((s) => s.group === "startup" && s.name.startsWith("cold start") && s.format === format);
    const mine = cold.filter((s) => s.tool.startsWith("ours"));
    const ours = mine[0];
    if (!ours) continue;
    const F = format.toUpperCase();
    for (const s of mine) {
      add(`${F} 1,000 cold start → first diagnostics ≤ 2× (node -e 0 + warm in-process): ${s.tool}`,
        `${fmt(s.ratio_to_floor, 2)}× (${ms(s.median_ms)} ms vs ${ms(s.node_ms)} + ${ms(s.warm_ms)} ms)`, s.ratio_to_floor <= 2);
    }
    const isFresh = (s) => s.tool.startsWith("fresh process");
    for (const peer of cold.filter((s) => s.ours_ratio !== undefined && !isFresh(s))) {
      add(`${F} 1,000 cold start ≤ 0.5× ${peer.tool}`, `${fmt(peer.ours_ratio, 2)}× (${ms(ours.median_ms)} ms vs ${ms(peer.median_ms)} ms)`, peer.ours_ratio <= 0.5);
    }
    // Not a target: the least any cold start of our code costs (first-analysis.cjs), and what the server adds to it.
    for (const fresh of cold.filter(isFresh)) {
      na(`${F} 1,000 cold start, for reference: ${fresh.tool}`,
        `${fmt(fresh.ratio_to_floor, 2)}× node -e 0 + warm (${ms(fresh.median_ms)} ms); the server (${ours.tool}) takes ${fmt(fresh.ours_ratio, 2)}× this`);
    }
  }
  const cli = S.filter((s) => s.group === "startup" && s.tool.startsWith("ours CLI"));
  if (cli.length === 0) na("CLI on many small files ≤ 2× read + parse per file", "not measured");
  for (const s of cli) {
    add(`CLI on ${s.files} small files: ${s.tool}, ${s.name} ≤ 2× read + parse without positions`,
      `${fmt(s.ratio_to_floor, 2)}× (${ms(s.median_ms)} ms vs ${ms(s.floor.median_ms)} ms per file)`, s.ratio_to_floor <= 2);
  }
}

export function renderMarkdown(results) {
  const S = results.series;
  const m = results.machine;
  const lines = [];
  lines.push("# Benchmark results", "");
  lines.push("Generated by `npm run bench` (bench/run.mjs) from bench/results.json; do not edit by hand.", "");
  lines.push(`Machine: ${m.cpus} × ${m.cpu ?? "?"}, ${m.memory_gb} GB, ${m.platform}, Node ${m.node}; load average at the end ${m.load_average_at_end?.join(" / ")} ` +
    `(the machine is shared: absolute times move between runs, same-run ratios hold). ${m.quick ? "Quick run (100 and 1,000 steps). " : ""}` +
    `${m.iterations} measured iterations per series after warm-up; run took ${m.duration_s} s. Versions: ${Object.entries(m.versions ?? {}).map(([k, v]) => `${k} ${v}`).join(", ")}.`, "");
  if (results.merged) {
    const e = results.merged.earlier_machine;
    lines.push(`Merged run (\`--merge\`): only the series of ${results.merged.measured_now.map((w) => `\`${w}\``).join(", ")} were measured on ${m.date?.slice(0, 10)} as above; ` +
      `${(results.merged.between ?? []).map((b) => `those of ${b.workers.map((w) => `\`${w}\``).join(", ")} in a merged run of ${b.machine.date?.slice(0, 10)} (load average at its end ${b.machine.load_average_at_end?.join(" / ")}); `).join("")}` +
      `the others are from the run of ${e.date?.slice(0, 10)} (load average at its end ${e.load_average_at_end?.join(" / ")}, ${e.iterations} iterations, ${e.duration_s} s).`, "");
  }
  lines.push("Every figure is a median in ms (p95 after the slash); `×` is the median of per-iteration ratios to the floor parser of the format, timed in the same process on the same text, interleaved (jsonc `parseTree` for JSON, `yaml` `parseDocument` + `LineCounter` for YAML).", "");

  if (results.failures?.length) {
    lines.push("## Series that did not finish", "");
    for (const f of results.failures) lines.push(`- \`${f.worker} ${f.args}\`: exit ${f.exit ?? "none"}${f.signal ? `, ${f.signal}` : ""}${f.note ? ` (${f.note})` : ""}`);
    lines.push("");
  }

  lines.push("## Targets", "");
  lines.push("| target | figure | met |", "|---|---|---|");
  for (const t of targets(results)) lines.push(`| ${t.target} | ${t.figure} | ${t.met === undefined ? "–" : t.met ? "yes" : "**no**"} |`);
  lines.push("");

  const sizes = [...new Set(S.map((s) => s.steps))].sort((a, b) => a - b);
  for (const format of ["json", "yaml"]) {
    const rows = S.filter((s) => s.format === format && s.group !== "startup" && s.group !== "huge");
    if (rows.length === 0) continue;
    lines.push(`## ${format.toUpperCase()}`, "");
    const names = [...new Set(rows.map((s) => `${s.tool} — ${s.name}`))];
    lines.push(`| series | ${sizes.map((n) => `${n} steps`).join(" | ")} |`, `|---|${sizes.map(() => "---:").join("|")}|`);
    for (const label of names) {
      const cells = sizes.map((n) => {
        const s = rows.find((r) => `${r.tool} — ${r.name}` === label && r.steps === n);
        return s ? `${ms(s.median_ms)} / ${ms(s.p95_ms)} (${fmt(s.ratio_to_floor, 2)}×)` : "";
      });
      lines.push(`| ${label} | ${cells.join(" | ")} |`);
    }
    lines.push("");
  }

  const startup = S.filter((s) => s.group === "startup");
  if (startup.length > 0) {
    lines.push("## Start-up", "");
    lines.push("Cold start: spawn → `initialize` → `initialized` → `didOpen` → first `publishDiagnostics` of a valid 1,000-step document; × is per round against bare `node -e 0` (spawn → exit) + our warm in-process text → diagnostics, both timed in the same rounds. The CLI: one `lwir validate` process on the conformance corpus copied 8 times, spawn → exit, per file; × is per round against a process that reads and parses the same files without positions.", "");
    lines.push("| series | format | median / p95 ms | × | note |", "|---|---|---:|---:|---|");
    for (const s of startup) {
      const note = s.ours_ratio !== undefined ? `ours / this: ${fmt(s.ours_ratio, 2)}×` : s.files !== undefined && s.tool !== "floor" ? `${s.files} files, ${ms(s.total_ms)} ms in all, ${fmt(s.output_bytes / 1024, 0)} KiB output` : "";
      lines.push(`| ${s.tool} — ${s.name} | ${s.format} | ${ms(s.median_ms)} / ${ms(s.p95_ms)} | ${fmt(s.ratio_to_floor, 2)} | ${note} |`);
    }
    lines.push("");
  }

  const huge = S.filter((s) => s.group === "huge");
  if (huge.length > 0) {
    lines.push("## One huge workflow (CLI)", "");
    lines.push("`lwir validate` on one workflow, spawn → exit; × is per round against the same workflow as JSON. \"As a YAML writer writes it\" is `yaml`'s stringify of the JSON: long text folded over lines, `>-` blocks.", "");
    lines.push("| format | steps | file | median / p95 ms | × JSON | peak memory |", "|---|---:|---:|---:|---:|---:|");
    for (const s of huge) lines.push(`| ${s.format} | ${s.steps} | ${fmt(s.file_mb, 1)} MB | ${ms(s.median_ms)} / ${ms(s.p95_ms)} | ${fmt(s.ratio_to_floor, 2)} | ${fmt(s.peak_mb, 0)} MB |`);
    lines.push("");
  }

  const mem = S.filter((s) => s.rss_after_open_mb !== undefined);
  if (mem.length > 0) {
    lines.push("## Server memory (RSS, MB)", "");
    lines.push("| server | format | steps | idle | after open | after 30 edits + completions | peak |", "|---|---|---:|---:|---:|---:|---:|");
    for (const s of mem) lines.push(`| ${s.tool} | ${s.format} | ${s.steps} | ${fmt(s.rss_idle_mb, 0)} | ${fmt(s.rss_after_open_mb, 0)} | ${fmt(s.rss_after_edits_mb, 0)} | ${fmt(s.rss_peak_mb, 0)} |`);
    lines.push("");
  }
  lines.push("## Method", "");
  lines.push("- Workloads: `bench/generate.mjs --seed 1` (our generator; valid documents). Fresh-document series change the metadata description every iteration, so no cache keyed by text or version can answer.");
  lines.push("- Ours in process: `analyzeText` + `toDiagnostics` (fresh); an open document in an `LwirWorkspace`, one letter typed or deleted in a prompt per iteration (edit); `provideCompletionFromText` after typing `.` in `{{ steps` (what the server answers right after an edit).");
  lines.push("- Over LSP: the built server (`dist/server.js`, `lwir.validation.delay` 0) and yaml-language-server over stdio through test/lsp/harness.ts; didChange → publishDiagnostics per one-character edit; completion with the didChange and the request in one write, then again on the same version once its diagnostics are out; both servers get VS Code's completion capabilities (item defaults, resolve). yaml-language-server runs as shipped (200 ms debounce) and with the debounce removed (bench/yamlls-nodelay.cjs).");
  lines.push("- Workflow graph (bench/workers/graph.mjs): `buildGraph` from the parsed value and findings, `layoutGraph` (dagre), both, and an edit that changes no edge (the model rebuilt, `graphShapeKey` unchanged, the layout reused); elkjs lays out the same graph for comparison (bench/graph-elk.mjs, not at 5,000). The floor is `yaml` `parseDocument` of the same document's YAML text. Over LSP (bench/workers/graph-lsp.mjs, 1,000 steps): an edit that changes an edge sent in one write with `lwir/graph` {provisional: true} and a completion request, then `lwir/graph` again on the provisional answer, as the extension does; the provisional answer's (the redrawn graph), the new layout's and the completion's latency (the layout runs in the server's worker thread).");
  lines.push("- One graph action (bench/workers/graph-edit.mjs, 1,000 steps, issue 26): `lwir/graphEdit`'s edit of a connect (a needs entry added; graphEdit, with its check that the edited text parses), then the edit applied to the text, the text analysed again and the graph model rebuilt from it, as the server does before the view's next (provisional) answer; and the edit alone. Floor: `yaml` `parseDocument` of the same document.");
  lines.push("- Peers use schemas/lwir.schema.json, the schema `lwir schema` prints (draft-07; test/unit/lwir-schema.test.ts checks it accepts every valid corpus document).");
  lines.push("");
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = dirname(fileURLToPath(import.meta.url));
  const results = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  writeFileSync(join(here, "RESULTS.md"), renderMarkdown(results));
}
