// Shared by the benchmark workers: argument parsing, the interleaved measuring loop, statistics,
// the floor parsers, and the edits a user makes (one character in a prompt, `{{ steps.` typed).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseTree } from "jsonc-parser";
import { LineCounter, parseDocument, Lexer } from "yaml";

export const require = createRequire(import.meta.url);

export function args() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith("--")) continue;
    const name = argv[i].slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) out[name] = true;
    else {
      out[name] = next;
      i++;
    }
  }
  return {
    file: out.file,
    format: out.format,
    steps: Number(out.steps),
    iterations: Number(out.iterations ?? 30),
    warmup: Number(out.warmup ?? 5),
    mode: out.mode,
    raw: out,
  };
}

export function readWorkload(file) {
  return readFileSync(file, "utf8");
}

// ---- statistics -------------------------------------------------------------------------------

export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  // nearest rank
  const rank = Math.min(s.length, Math.max(1, Math.ceil(q * s.length)));
  return s[rank - 1];
}
export const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** One series' figures. The ratio is the median of per-iteration ratios to the floor measured beside it. */
export function summarize(name, tool, format, steps, samples, floorName, floorSamples, extra = {}) {
  const ratios = samples.map((s, i) => s / floorSamples[i]);
  return {
    name,
    tool,
    format,
    steps,
    median_ms: round(median(samples)),
    p95_ms: round(quantile(samples, 0.95)),
    ratio_to_floor: round(median(ratios), 3),
    floor: { name: floorName, median_ms: round(median(floorSamples)), p95_ms: round(quantile(floorSamples, 0.95)) },
    iterations: samples.length,
    ...extra,
  };
}

export function round(x, digits = 2) {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// ---- the loop -----------------------------------------------------------------------------------

/**
 * Runs `warmup` unmeasured rounds, then `iterations` measured ones. Each round calls every subject and
 * the floor once, alternating which goes first so neither always runs on a warmer or colder heap.
 * Subjects and floor return their own duration in ms (they may be async). GC runs when it wants.
 */
export async function interleave({ warmup, iterations, subjects, floor }) {
  const results = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
  const floorSamples = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const measured = i >= warmup;
    const order = i % 2 === 0 ? ["subjects", "floor"] : ["floor", "subjects"];
    for (const part of order) {
      if (part === "floor") {
        const f = await floor(i);
        if (measured) floorSamples.push(f);
      } else {
        for (const [k, fn] of Object.entries(subjects)) {
          const t = await fn(i);
          if (measured) results[k].push(t);
        }
      }
    }
  }
  return { results, floorSamples };
}

export async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
export function timedSync(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// ---- floors -----------------------------------------------------------------------------------

export const FLOOR = {
  json: { name: "jsonc parseTree", run: (text) => parseTree(text, [], { disallowComments: true }) },
  yaml: { name: "yaml parseDocument + LineCounter", run: (text) => parseDocument(text, { lineCounter: new LineCounter() }) },
};
export const EXTRA_FLOORS = {
  json: { name: "JSON.parse", run: (text) => JSON.parse(text) },
  yaml: {
    name: "yaml Lexer",
    run: (text) => {
      let n = 0;
      for (const _ of new Lexer().lex(text)) n++;
      return n;
    },
  },
};

export function floorTimer(format) {
  const f = FLOOR[format];
  return (text) => timedSync(() => f.run(text));
}

// ---- text variations and edits ----------------------------------------------------------------

/** A fresh text per iteration: the metadata description changes, so no cache keyed by text can answer. */
export function variant(text, i) {
  const marker = "Generated LWIR workflow";
  const at = text.indexOf(marker);
  if (at < 0) throw new Error("workload without the generator's description");
  return flat(text.slice(0, at) + `${marker} (variant ${i})` + text.slice(at + marker.length));
}

/**
 * A flat copy of a string. A concatenation is a rope in V8 until something flattens it, and whoever
 * touches it first pays the copy; flattening outside the timed region keeps that off every subject.
 */
export function flat(s) {
  return Buffer.from(s, "utf8").toString("utf8");
}

/** Offsets of prose words inside prompts where a letter can be typed without changing validity. */
export function editSites(text) {
  const sites = [];
  const re = /Weigh \{\{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) sites.push(m.index + "Weigh".length);
  if (sites.length === 0) throw new Error("no edit sites");
  return sites;
}

/**
 * The i-th one-character edit of a sequence over the sites: odd rounds type a letter, even rounds
 * delete it again, so the document stays the same size and valid. Returns {offset, deleteCount, insert}.
 */
export function editAt(sites, i) {
  const site = sites[(Math.floor(i / 2) * 7919) % sites.length];
  return i % 2 === 0 ? { offset: site, deleteCount: 0, insert: "x" } : { offset: site, deleteCount: 1, insert: "" };
}

export function applyEdit(text, e) {
  return flat(text.slice(0, e.offset) + e.insert + text.slice(e.offset + e.deleteCount));
}

/**
 * Puts an unfinished `{{ steps` at the end of a prompt line near the middle of the document (where a
 * user is typing a reference) and returns the text and the offset just after it, where `.` is typed.
 */
export function completionSite(text, format) {
  const anchors = [];
  const re = /Weigh \{\{[^\n"]*\}\} before answering\./g;
  for (let m = re.exec(text); m; m = re.exec(text)) anchors.push(m.index + m[0].length);
  const at = anchors[Math.floor(anchors.length / 2)];
  if (at === undefined) throw new Error("no completion site");
  const insert = " Also {{ steps";
  void format;
  return { text: text.slice(0, at) + insert + text.slice(at), offset: at + insert.length, marker: insert };
}

export function positionAt(text, offset) {
  let line = 0;
  let last = -1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    last = i;
  }
  return { line, character: offset - last - 1 };
}

export function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { rss_mb: round(kb("VmRSS") / 1024, 1), peak_mb: round(kb("VmHWM") / 1024, 1) };
  } catch {
    return { rss_mb: NaN, peak_mb: NaN };
  }
}

export function emit(series) {
  process.stdout.write("@@RESULT " + JSON.stringify(series) + "\n");
}

/** yaml-language-server's settings in every series that runs it: LWIR's schema on LWIR files, validation and completion on. */
export function yamllsSettings(root) {
  return {
    validate: true,
    completion: true,
    hover: false,
    format: { enable: false },
    schemaStore: { enable: false },
    schemas: { [pathToFileURL(join(root, "schemas", "lwir.schema.json")).href]: ["*.lwir.yaml", "*.lwir.json"] },
  };
}
