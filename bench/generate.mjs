#!/usr/bin/env node
// Our workflow generator: deterministic, realistic LWIR documents (littleworkflow.dev/v0.1) of any size,
// in JSON or YAML, for the benchmark and for tests. No dependencies beyond node's built-ins; the same
// options always give the same bytes.
//
//   node bench/generate.mjs --steps 1000 --format yaml --seed 1 --out w.lwir.yaml
//   node bench/generate.mjs --steps 60 --seed 3 --errors 4 --out e.lwir.json   (also writes e.lwir.json.errors.json)
//
// Options:
//   --steps N      step objects in the document, parallel bodies included (default 100)
//   --format F     json | yaml (default json); both renderings parse to the same value
//   --seed S       any string (default 1)
//   --id-style X   kebab (rank-ticket-7, default) | snake (rank_ticket_7)
//   --errors K     break the document in K known places (default 0). Kinds are tried round-robin in the
//                  order below, each producing exactly one finding; no step is touched twice, so the
//                  findings do not interact. <out>.errors.json (or, without --out, nothing) lists them as
//                  { kind, stepId, path, expectedCode, detail }. A document too small for K errors is
//                  refused (exit 1).
//   --out FILE     write there (default: stdout)
//
// Without --errors the document is valid: no findings. How that is kept (rules of the runtime's validator):
//   - steps with maxVisits > 1 (loop members) are read only through lastOutput/allVisits, and every member
//     of a loop, its decision included, has maxVisits >= 2;
//   - every `steps.X.output` read is declared in needs; lastOutput/allVisits reads without needs only
//     where X reaches the reader through needs and decision edges;
//   - a decision target that has needs of its own is never needed by another step;
//   - exactly one top-level step (the last) is needed by nobody and targeted by no decision;
//   - schemas use only the LWIR subset; parallel steps carry cardinality matches_items and the fan-in
//     envelope as their array items; permissions list every model and tool used.
import { writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

// ---- seeded random numbers (FNV-1a over the seed text, then mulberry32) ------------------------------

export function random(seedText) {
  let h = 0x811c9dc5;
  for (const ch of String(seedText)) { h ^= ch.codePointAt(0); h = Math.imul(h, 0x01000193); }
  let state = h >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    shuffled(list) {
      const a = [...list];
      for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
      return a;
    },
  };
  return r;
}

// ---- vocabulary -----------------------------------------------------------------------------------------

const ACTIONS = ["summarize", "classify", "extract", "score", "rank", "assess", "draft", "compare", "verify", "enrich", "triage", "explain"];
const THINGS = ["ticket", "invoice", "contract", "resume", "claim", "order", "report", "lead", "incident", "policy", "email", "proposal"];
const MODELS = ["gpt-4o-mini", "gpt-4o", "claude-sonnet-4", "llama-3-70b-instruct"];
const TOOLS = ["crm.lookup", "kb.search", "docs.extract", "risk.score", "ledger.balance", "geo.lookup", "artifact.read"];
const SIDE_EFFECTS = ["notify.send", "artifact.write"];
const SYSTEM_PROMPTS = [
  "You are a careful reviewer. Base every statement on the input.",
  "You write short, neutral summaries for busy readers.",
  "You extract structured data and use null for anything missing.",
  "You grade strictly and explain each decision briefly.",
];
// Prompt sentences around an expression. "Weigh ... before answering." is where the benchmark types.
const FRAMES = [
  (e) => `Weigh ${e} before answering.`,
  (e) => `Context: ${e}.`,
  (e) => `Earlier result: ${e}`,
  (e) => `Compare it with ${e} and list the gaps.`,
  (e) => `Constraints to respect: ${e}.`,
];
const ENDINGS = ["Answer in at most 100 words.", "Return only the requested fields.", "Say so when information is missing."];
const CHOICE_SETS = [["approve", "reject", "escalate"], ["low", "medium", "high"], ["yes", "no"]];

// Output-schema properties (LWIR subset only), by name.
const PROPERTIES = {
  summary: { type: "string" },
  label: { type: "string", maxLength: 80 },
  score: { type: "number", minimum: 0, maximum: 1 },
  confidence: { type: "number", minimum: 0, maximum: 1 },
  passed: { type: "boolean" },
  feedback: { type: "string", description: "What to change next time" },
  count: { type: "integer", minimum: 0 },
  tags: { type: "array", items: { type: "string" }, maxItems: 12 },
  severity: { type: "string", enum: ["low", "medium", "high"] },
  notes: { type: ["string", "null"] },
  amount: { type: "number" },
  reasons: { type: "array", items: { type: "string", minLength: 1 } },
  evidence: { type: "array", items: { type: "object", required: ["quote"], properties: { quote: { type: "string" }, page: { type: "integer" } } } },
};
const PROPERTY_NAMES = Object.keys(PROPERTIES);
const INPUT_FIELDS = ["customerId", "customerName", "locale", "priority", "budget", "region", "brief"];
const INPUT_LISTS = { tickets: ["id", "subject", "body"], documents: ["id", "title", "uri"], candidates: ["id", "name", "resume"] };

const copy = (v) => JSON.parse(JSON.stringify(v));

// ---- the generator --------------------------------------------------------------------------------------

export function generate({ steps = 100, seed = "1", errors = 0, idStyle = "kebab" } = {}) {
  if (!Number.isInteger(steps) || steps < 1) throw new Error("--steps must be a positive integer");
  if (!Number.isInteger(errors) || errors < 0) throw new Error("--errors must be a non-negative integer");
  const rng = random(`lwir-workflow/${seed}/${steps}`);
  const sep = idStyle === "snake" ? "_" : "-";
  let serial = 0;
  const newId = (a, b) => `${a}${sep}${b}${sep}${++serial}`;
  const models = new Set();
  const tools = new Set();
  const model = () => { const m = rng.chance(0.6) ? MODELS[0] : rng.pick(MODELS); models.add(m); return m; };
  /** What later steps need to know about a step: its output shape, and whether it runs more than once. */
  const facts = new Map();
  const loops = [];

  function objectOutput(n, must = []) {
    const names = [...new Set([...must, ...rng.shuffled(PROPERTY_NAMES).slice(0, n)])];
    const properties = Object.fromEntries(names.map((p) => [p, copy(PROPERTIES[p])]));
    const required = names.filter((p, i) => must.includes(p) || i === 0 || rng.chance(0.4));
    const schema = { type: "object", required, properties };
    if (rng.chance(0.5)) schema.additionalProperties = false;
    return { mode: "object", schema };
  }
  function output(modes) {
    const mode = rng.pick(modes);
    if (mode === "text") return { mode };
    if (mode === "choice") return { mode, values: [...rng.pick(CHOICE_SETS)] };
    if (mode === "array") {
      const row = objectOutput(rng.int(1, 2), ["label"]).schema;
      return { mode, schema: { type: "array", items: row, maxItems: rng.int(10, 50) } };
    }
    const o = objectOutput(rng.int(2, 4));
    if (mode === "json") { o.schema.additionalProperties = true; return { mode, schema: o.schema }; }
    return o;
  }
  function remember(step, extra = {}) {
    const out = step.output;
    const fields = out.mode === "object" || out.mode === "json" ? Object.keys(out.schema.properties) : [];
    facts.set(step.id, { mode: out.mode, fields, values: out.values, schema: out.schema, multi: (step.maxVisits ?? 1) > 1, ...extra });
  }

  // Expressions. `read(x, needs)` declares x in needs and reads it the way its visits allow.
  function read(x, needs) {
    const f = facts.get(x);
    if (needs) needs.add(x);
    if (f.multi) return rng.chance(0.7) ? `{{ steps.${x}.lastOutput }}` : `{{ len(steps.${x}.allVisits) }}`;
    const base = `steps.${x}.output`;
    if (f.fields.length && rng.chance(0.8)) {
      const p = rng.pick(f.fields);
      if (PROPERTIES[p].type === "array" && rng.chance(0.4)) return `{{ len(${base}.${p}) }}`;
      if (PROPERTIES[p].type === "string" && rng.chance(0.2)) return `{{ coalesce(${base}.${p}, "none") }}`;
      return `{{ ${base}.${p} }}`;
    }
    if (f.mode === "array" && rng.chance(0.5)) return `{{ len(${base}) }}`;
    if (f.mode === "json" && rng.chance(0.3)) return `{{ json(${base}) }}`;
    return `{{ ${base} }}`;
  }
  /** A read over the flow graph (no needs entry): only lastOutput / allVisits qualify. */
  const flowRead = (x, field) => (field ? `{{ steps.${x}.lastOutput.${field} }}` : rng.chance(0.5) ? `{{ steps.${x}.lastOutput }}` : `{{ steps.${x}.allVisits }}`);
  function inputRead(itemFields) {
    if (itemFields && rng.chance(0.5)) {
      const f = rng.pick(itemFields);
      return rng.chance(0.15) ? `{{ sha256(item.${f}) }}` : `{{ item.${f} }}`;
    }
    const f = rng.pick(INPUT_FIELDS);
    if (f === "locale" && rng.chance(0.3)) return "{{ upper(input.locale) }}";
    return rng.chance(0.1) ? `{{ coalesce(input.${f}, "unknown") }}` : `{{ input.${f} }}`;
  }
  function prompt(action, thing, exprs) {
    const frames = rng.shuffled(FRAMES);
    const parts = [`${action[0].toUpperCase()}${action.slice(1)} the ${thing}.`, ...exprs.map((e, i) => frames[i % frames.length](e)), rng.pick(ENDINGS)];
    return parts.join(rng.chance(0.3) ? "\n" : " ");
  }

  // Step builders. `reads`: ids read with needs; `flows`: expressions read without needs.
  function aiStep({ reads = [], flows = [], itemFields, maxVisits, modes = ["text", "object", "object", "array", "choice", "json"], must, action, thing, id } = {}) {
    action ??= rng.pick(ACTIONS);
    thing ??= rng.pick(THINGS);
    const needs = new Set();
    const exprs = [...flows, ...reads.map((x) => read(x, needs))];
    const wanted = rng.int(2, 4);
    while (exprs.length < wanted) exprs.push(inputRead(itemFields));
    const step = { id: id ?? newId(action, thing), uses: "ai.generate" };
    if (needs.size) step.needs = [...needs];
    if (maxVisits) step.maxVisits = maxVisits;
    step.with = { model: model() };
    if (rng.chance(0.5)) step.with.system = rng.pick(SYSTEM_PROMPTS);
    step.with.prompt = prompt(action, thing, rng.shuffled(exprs));
    if (rng.chance(0.3)) step.input = itemFields ? { record: "{{ item }}" } : { customer: "{{ input.customerName }}", priority: "{{ input.priority }}" };
    step.output = must ? objectOutput(rng.int(0, 2), must) : output(modes);
    if (step.output.mode === "object" && rng.chance(0.15)) step.onFailure = { repair: { mode: "self", maxAttempts: rng.int(1, 3) } };
    remember(step);
    return step;
  }
  function toolStep({ reads = [], flows = [], itemFields, tool, thing } = {}) {
    tool ??= rng.pick(TOOLS);
    tools.add(tool);
    const needs = new Set();
    const args = { key: itemFields ? `{{ item.${itemFields[0]} }}` : "{{ input.customerId }}" };
    const names = rng.shuffled(["query", "context", "filter", "payload", "body"]);
    for (const e of [...flows, ...reads.map((x) => read(x, needs))]) args[names.pop()] = e;
    if (rng.chance(0.4)) args.limit = rng.int(5, 40);
    const step = { id: newId(rng.pick(["fetch", "lookup", "load", "store"]), thing ?? rng.pick(THINGS)), uses: "tool.call" };
    if (needs.size) step.needs = [...needs];
    if (rng.chance(0.05)) step.sensitive = true;
    step.with = { tool, args };
    step.output = output(["object", "array", "json"]);
    remember(step);
    return step;
  }
  function codeStep(reads) {
    const tool = rng.pick(TOOLS);
    tools.add(tool);
    const action = rng.pick(["filter", "dedupe", "merge"]);
    const id = newId(action, rng.pick(THINGS));
    const limit = rng.int(2, 9) / 10;
    const source = `export async function run({ input, tools }) {\n  const rows = await tools.call("${tool}", { id: input.id });\n  return rows.filter((row) => row.score >= ${limit}).map((row) => ({ label: String(row.id), score: row.score }));\n}\n`;
    const needs = new Set();
    const step = { id, uses: "code.run" };
    const input = { id: "{{ input.customerId }}" };
    for (const x of reads) input.rows = read(x, needs);
    if (needs.size) step.needs = [...needs];
    step.with = {
      entrypoint: `${action}.ts`,
      files: { [`${action}.ts`]: { content: source, sha256: `sha256:${createHash("sha256").update(source, "utf8").digest("hex")}` } },
      sandbox: { network: "deny", env: "deny", fs: "deny" },
    };
    step.input = input;
    step.output = { mode: "array", schema: { type: "array", items: { type: "object", required: ["label", "score"], properties: { label: { type: "string" }, score: { type: "number" } } } } };
    if (rng.chance(0.4)) step.onFailure = { fixer: { model: model(), maxAttempts: rng.int(1, 4), system: "Make run() return rows that match the output schema." } };
    remember(step);
    return step;
  }

  // A loop: worker -> review -> route (decision back to the worker until the review passes) and the exit
  // step the route sends the run to. Worker and exit have no needs: the worker is the back-edge target,
  // the exit a decision target other steps may still need. Both read the loop over the flow graph.
  function loop({ itemFields, context } = {}) {
    const thing = rng.pick(THINGS);
    const visits = rng.int(2, 5);
    const workerId = newId("draft", thing), reviewId = newId("review", thing), routeId = newId("route", thing);
    const worker = aiStep({ id: workerId, thing, action: "draft", itemFields, maxVisits: visits, modes: ["text", "object"], flows: [rng.chance(0.7) ? flowRead(reviewId, "feedback") : flowRead(reviewId)] });
    const review = aiStep({ id: reviewId, thing, action: "review", itemFields, maxVisits: visits, must: ["passed", "feedback", "score"], reads: context ? [workerId, context] : [workerId] });
    const passed = `steps.${reviewId}.lastOutput`;
    const route = {
      id: routeId, uses: "decision", needs: [reviewId], maxVisits: visits,
      with: { cases: [{ when: rng.pick([`{{ ${passed}.passed }}`, `{{ ${passed}.passed && ${passed}.score >= 0.7 }}`]), to: "end" }], default: workerId },
    };
    const flows = [flowRead(reviewId, rng.pick(["feedback", "score", null]))];
    if (rng.chance(0.5)) flows.push(flowRead(workerId));
    const exit = aiStep({ thing, action: "finalize", itemFields, flows, modes: ["text", "object", "json"] });
    route.with.cases[0].to = exit.id;
    loops.push([workerId, reviewId, routeId]);
    return { steps: [worker, review, route, exit], exitId: exit.id, targets: [workerId, exit.id] };
  }

  // A parallel step over an input list, its body a short chain or a loop.
  function parallel(room, context) {
    const list = rng.pick(Object.keys(INPUT_LISTS));
    const itemFields = INPUT_LISTS[list];
    const body = [];
    let contributor;
    if (room >= 5 && rng.chance(0.35)) {
      const l = loop({ itemFields, context });
      body.push(...l.steps);
      contributor = l.exitId;
    } else {
      const n = Math.min(room - 1, rng.int(1, 3));
      for (let i = 0; i < n; i++) {
        const reads = i > 0 ? [body[i - 1].id] : context ? [context] : [];
        body.push(rng.chance(0.7) ? aiStep({ reads, itemFields }) : toolStep({ reads, itemFields }));
      }
      contributor = body[body.length - 1].id;
    }
    const branches = rng.int(5, 100);
    const fanIn = { order: rng.pick(["input", "itemKey"]), output: "array" };
    if (rng.chance(0.4)) fanIn.outputStep = contributor;
    const c = facts.get(contributor);
    const value = c.mode === "text" ? { type: "string" } : c.mode === "choice" ? { type: "string", enum: [...c.values] } : copy(c.schema);
    const step = { id: newId("each", list.slice(0, -1)), uses: "parallel" };
    if (context) step.needs = [context];
    step.with = {
      items: `{{ input.${list} }}`, itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" },
      maxBranches: branches, maxConcurrency: rng.int(1, Math.min(8, branches)), failureMode: rng.pick(["fail_fast", "all_settled"]), fanIn,
    };
    step.output = {
      mode: "array",
      schema: {
        type: "array", maxItems: branches,
        items: {
          type: "object", required: ["itemKey", "status", "artifacts"],
          properties: {
            itemKey: { type: "string" }, status: { type: "string", enum: ["succeeded", "failed"] }, output: value,
            outputRef: { type: "string" }, error: { type: "object", properties: { message: { type: "string" } } },
            artifacts: { type: "array", items: { type: "string" } },
          },
        },
      },
    };
    step.steps = body;
    remember(step);
    return step;
  }

  // A decision on an earlier choice step: each value but the last routes to a side-effect leaf that
  // needs the choice step (so nothing may need the leaf); the default ends the workflow's branch.
  function gate(x) {
    const f = facts.get(x);
    const thing = rng.pick(THINGS);
    const leaves = f.values.slice(0, -1).slice(0, 2).map(() => toolStep({ reads: [x], tool: rng.pick(SIDE_EFFECTS), thing }));
    const cases = leaves.map((leaf, i) => ({ when: `{{ steps.${x}.output == "${f.values[i]}" }}`, to: leaf.id }));
    const step = { id: newId("gate", thing), uses: "decision", needs: [x], with: { cases, default: "end" } };
    return { steps: [step, ...leaves], targets: leaves.map((l) => l.id) };
  }

  // ---- assembly: blocks until one slot is left for the final step
  const top = [];
  let count = 0;
  const pool = []; // top-level steps later steps may need
  const loose = new Set(); // top-level steps nothing needs yet (nor targets)
  const needOf = (ids) => { for (const id of ids) loose.delete(id); return ids; };
  const pickReads = (max) => {
    const out = [];
    if (!pool.length || max <= 0) return out;
    const k = rng.int(0, Math.min(max, pool.length));
    if (k > 0 && loose.size && rng.chance(0.7)) out.push(loose.values().next().value);
    while (out.length < k) {
      const x = pool[Math.max(0, pool.length - 1 - Math.floor(rng.next() ** 2 * Math.min(pool.length, 20)))];
      if (!out.includes(x)) out.push(x); else if (rng.chance(0.3)) break;
    }
    return needOf(out);
  };
  const add = (steps, { targets = [], open = true } = {}) => {
    for (const s of steps) {
      top.push(s);
      count += 1 + (s.steps?.length ?? 0);
    }
    for (const s of steps) {
      if (s.uses === "decision" || targets.includes(s.id)) continue;
      if (open) { pool.push(s.id); loose.add(s.id); }
    }
  };
  while (count < steps - 1) {
    const room = steps - 1 - count;
    const kinds = [["ai", 50], ["tool", 20], ["code", 4]];
    if (room >= 4) kinds.push(["loop", 8]);
    if (room >= 2) kinds.push(["parallel", 10]);
    const choices = pool.filter((x) => facts.get(x).mode === "choice").slice(-10);
    if (room >= 2 && choices.length) kinds.push(["gate", 5]);
    let r = rng.next() * kinds.reduce((s, k) => s + k[1], 0);
    const kind = kinds.find((k) => (r -= k[1]) < 0)?.[0] ?? "ai";
    if (kind === "ai") add([aiStep({ reads: pickReads(3) })]);
    else if (kind === "tool") add([toolStep({ reads: pickReads(2) })]);
    else if (kind === "code") add([codeStep(pickReads(1))]);
    else if (kind === "parallel") {
      const context = pool.length && rng.chance(0.3) ? needOf([pool[pool.length - 1]])[0] : undefined;
      add([parallel(room, context)]);
    } else if (kind === "loop") {
      const context = pool.length && rng.chance(0.5) ? needOf([rng.pick(pool.slice(-10))])[0] : undefined;
      const l = loop({ context });
      // worker and review run many times and route is a decision: only the exit joins the pool
      add(l.steps, { targets: l.targets, open: false });
      pool.push(l.exitId);
      loose.add(l.exitId);
    } else {
      const x = rng.pick(choices);
      needOf([x]);
      const g = gate(x);
      add(g.steps, { targets: g.targets });
    }
  }
  {
    const ends = [...loose];
    if (!ends.length && pool.length) ends.push(pool[pool.length - 1]);
    const needs = new Set();
    const exprs = ends.slice(0, 3).map((x) => read(x, needs));
    const rest = ends.slice(3);
    const step = { id: newId("compose", "answer"), uses: "ai.generate" };
    const input = rest.length ? { results: Object.fromEntries(rest.map((x) => [x, read(x, needs)])) } : undefined;
    while (exprs.length < 2) exprs.push(inputRead());
    if (needs.size) step.needs = [...needs];
    step.with = { model: model(), system: "You assemble the workflow's final answer from the results of earlier steps.", prompt: prompt("compose", "answer", exprs) };
    if (input) step.input = input;
    step.output = objectOutput(1, ["summary", "label"]);
    remember(step);
    top.push(step);
    count++;
  }

  const doc = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: `generated-${steps}-steps`, version: "1.0.0", description: `Generated LWIR workflow: ${steps} steps, seed ${seed}.` },
    input: {
      schema: {
        type: "object", required: ["customerId"], additionalProperties: false,
        properties: {
          customerId: { type: "string", minLength: 1 }, customerName: { type: "string" }, locale: { type: "string", enum: ["en", "de", "fr"] },
          priority: { type: "string", enum: ["low", "normal", "high"] }, budget: { type: "number", minimum: 0 }, region: { type: "string" },
          brief: { type: "string", maxLength: 10000 },
          ...Object.fromEntries(Object.entries(INPUT_LISTS).map(([name, fields]) => [name, {
            type: "array", maxItems: 100, items: { type: "object", required: ["id"], properties: Object.fromEntries(fields.map((f) => [f, { type: "string" }])) },
          }])),
        },
      },
    },
    output: { schema: { type: "object", properties: { summary: { type: "string" }, label: { type: "string" } } } },
    permissions: { models: [...models].sort(), tools: [...tools].sort(), secrets: [], network: [] },
    steps: top,
  };
  const injected = errors > 0 ? inject(doc, errors, random(`lwir-errors/${seed}/${steps}/${errors}`), loops, sep) : [];
  return { doc, injected };
}

// ---- error injection ------------------------------------------------------------------------------------

export const ERROR_KINDS = [
  "missing_needs", // step.undeclared_dependency: a needs entry removed, its .output read kept
  "unknown_step_ref", // step.missing_dependency: a template names a step that does not exist
  "bad_max_visits", // step.max_visits_out_of_range
  "cycle_single_visit", // lwir.invalid_cycle: a loop member left with one visit
  "bad_schema_keyword", // schema.invalid: a keyword outside the LWIR subset
  "output_on_multi_visit", // lwir.output_ambiguous_for_multi_visit: lastOutput read turned into output
  "malformed_template", // expression.invalid: unbalanced braces
  "unknown_needs_entry", // step.missing_dependency: a needs entry that names no step
  "unsafe_template", // expression.invalid: syntax outside the expression grammar
];
const EXECUTABLE = new Set(["ai.generate", "tool.call", "code.run"]);
const REF = /steps\.([A-Za-z0-9_$-]+)\.(output|lastOutput|allVisits)/g;

function inject(doc, k, rng, loops, sep) {
  // every step with its path and its list
  const entries = [];
  doc.steps.forEach((s, i) => {
    entries.push({ s, path: `$.steps[${i}]`, listPath: "$.steps", list: doc.steps });
    if (s.uses === "parallel") s.steps.forEach((b, j) => entries.push({ s: b, path: `$.steps[${i}].steps[${j}]`, listPath: `$.steps[${i}].steps`, list: s.steps }));
  });
  const byId = new Map(entries.map((e) => [e.s.id, e]));
  const loopOf = new Map(loops.flatMap((l) => l.map((id) => [id, l])));
  const touched = new Set();
  const free = (...ids) => ids.every((id) => !touched.has(id) && !(loopOf.get(id) ?? []).some((m) => touched.has(m)));
  const touch = (...ids) => ids.forEach((id) => touched.add(id));
  const ghost = (id) => `${id}${sep}gone`;
  const targetsOf = (list) => new Set(list.filter((s) => s.uses === "decision").flatMap((s) => [...s.with.cases.map((c) => c.to), s.with.default]).filter((t) => t !== "end"));
  // every string under a step's `with` (code.run files excepted) and `input`, with its path and a setter
  const strings = (e) => {
    const out = [];
    const walk = (holder, key, path) => {
      const v = holder[key];
      if (typeof v === "string") out.push({ path, value: v, set: (nv) => { holder[key] = nv; } });
      else if (Array.isArray(v)) v.forEach((_, i) => walk(v, i, `${path}[${i}]`));
      else if (v && typeof v === "object") for (const k2 of Object.keys(v)) if (!(k2 === "files" && e.s.uses === "code.run")) walk(v, k2, `${path}.${k2}`);
    };
    for (const field of ["with", "input"]) if (e.s[field] !== undefined) walk(e.s, field, `${e.path}.${field}`);
    return out;
  };
  const refs = (text) => [...text.matchAll(REF)].map((m) => ({ id: m[1], property: m[2], text: m[0] }));
  const candidates = () => rng.shuffled(entries).filter((e) => EXECUTABLE.has(e.s.uses) && free(e.s.id));
  const inputTemplate = /\{\{ (input\.[A-Za-z]+) \}\}/;

  const kinds = {
    missing_needs() {
      for (const e of candidates()) {
        if (!e.s.needs) continue;
        const strs = strings(e);
        for (const x of rng.shuffled(e.s.needs)) {
          if (!free(x)) continue;
          const hits = strs.flatMap((str) => refs(str.value).filter((r) => r.id === x).map((r) => ({ str, r })));
          if (hits.length !== 1 || hits[0].r.property !== "output") continue;
          // x must stay needed by someone (or targeted), or it becomes a second terminal step
          if (e.listPath === "$.steps" && byId.get(x)?.list === e.list) {
            const others = e.list.filter((o) => o !== e.s && (o.needs ?? []).includes(x)).length;
            if (others === 0 && !targetsOf(e.list).has(x)) continue;
          }
          e.s.needs = e.s.needs.filter((n) => n !== x);
          if (!e.s.needs.length) delete e.s.needs;
          touch(e.s.id, x);
          return { stepId: e.s.id, path: hits[0].str.path, expectedCode: "step.undeclared_dependency", detail: `"${x}" removed from needs; steps.${x}.output is still read` };
        }
      }
      return null;
    },
    unknown_step_ref() {
      for (const e of candidates()) {
        for (const str of rng.shuffled(strings(e))) {
          const r = refs(str.value)[0];
          if (!r) continue;
          str.set(str.value.replace(`steps.${r.id}.`, `steps.${ghost(r.id)}.`));
          touch(e.s.id);
          return { stepId: e.s.id, path: str.path, expectedCode: "step.missing_dependency", detail: `steps.${ghost(r.id)} names no step (was ${r.id})` };
        }
      }
      return null;
    },
    bad_max_visits() {
      for (const e of rng.shuffled(entries)) {
        if (!free(e.s.id)) continue;
        // on a loop stay >= 2 (or the cycle rule fires as well); elsewhere stay <= 1 (or .output reads
        // of the step become ambiguous)
        const members = loopOf.get(e.s.id);
        const was = e.s.maxVisits;
        e.s.maxVisits = members ? rng.pick([101, 3.5, 500]) : rng.pick([0, -2, 0.5]);
        touch(...(members ?? [e.s.id]));
        return { stepId: e.s.id, path: `${e.path}.maxVisits`, expectedCode: "step.max_visits_out_of_range", detail: `maxVisits ${was ?? "(unset)"} -> ${e.s.maxVisits}` };
      }
      return null;
    },
    cycle_single_visit() {
      for (const members of rng.shuffled(loops)) {
        if (!free(...members)) continue;
        const e = byId.get(rng.pick(members));
        if (rng.chance(0.5)) delete e.s.maxVisits; else e.s.maxVisits = 1;
        touch(...members);
        return { stepId: e.s.id, path: e.listPath, expectedCode: "lwir.invalid_cycle", detail: `${e.s.id} on the loop ${members.join(" -> ")} now runs at most once` };
      }
      return null;
    },
    bad_schema_keyword() {
      for (const e of rng.shuffled(entries)) {
        const schema = e.s.output?.schema;
        if (!free(e.s.id) || !schema) continue;
        const props = schema.properties ?? schema.items?.properties;
        const names = Object.keys(props ?? {}).filter((n) => ["string", "number", "integer"].includes(props[n].type));
        if (!names.length) continue;
        const name = rng.pick(names);
        const [keyword, value] = props[name].type === "string" ? rng.pick([["pattern", "^[a-z]+$"], ["format", "uri"], ["default", "n/a"]]) : rng.pick([["multipleOf", 0.5], ["exclusiveMaximum", 10], ["default", 1]]);
        props[name][keyword] = value;
        touch(e.s.id);
        return { stepId: e.s.id, path: `${e.path}.output.schema`, expectedCode: "schema.invalid", detail: `"${keyword}" on property "${name}" is outside the LWIR schema subset` };
      }
      return null;
    },
    output_on_multi_visit() {
      for (const e of candidates()) {
        for (const str of strings(e)) {
          const r = refs(str.value).find((x) => x.property !== "output" && (e.s.needs ?? []).includes(x.id) && byId.get(x.id)?.s.maxVisits > 1 && free(x.id));
          if (!r) continue;
          str.set(str.value.replace(r.text, `steps.${r.id}.output`));
          touch(e.s.id, r.id);
          return { stepId: e.s.id, path: str.path, expectedCode: "lwir.output_ambiguous_for_multi_visit", detail: `${r.text} -> steps.${r.id}.output` };
        }
      }
      return null;
    },
    malformed_template() {
      for (const e of candidates()) {
        for (const str of strings(e)) {
          const m = inputTemplate.exec(str.value);
          if (!m) continue;
          const broken = rng.chance(0.5) ? `{{ ${m[1]} }` : `{ ${m[1]} }}`;
          str.set(str.value.replace(m[0], broken));
          touch(e.s.id);
          return { stepId: e.s.id, path: str.path, expectedCode: "expression.invalid", detail: `${m[0]} -> ${broken}` };
        }
      }
      return null;
    },
    unknown_needs_entry() {
      for (const e of candidates()) {
        if (targetsOf(e.list).has(e.s.id)) continue; // a target with needs may not be needed by others
        const missing = ghost(e.s.id);
        e.s.needs = [...(e.s.needs ?? []), missing];
        touch(e.s.id);
        return { stepId: e.s.id, path: `${e.path}.needs[${e.s.needs.length - 1}]`, expectedCode: "step.missing_dependency", detail: `needs names "${missing}", which does not exist` };
      }
      return null;
    },
    unsafe_template() {
      for (const e of candidates()) {
        for (const str of strings(e)) {
          const m = inputTemplate.exec(str.value);
          if (!m) continue;
          const bad = rng.pick([`{{ ${m[1]} | trim }}`, `{{ ${m[1]}.trim() }}`, `{{ strip(${m[1]}) }}`, `{{ ${m[1]} + "!" }}`]);
          str.set(str.value.replace(m[0], bad));
          touch(e.s.id);
          return { stepId: e.s.id, path: str.path, expectedCode: "expression.invalid", detail: `${m[0]} -> ${bad}` };
        }
      }
      return null;
    },
  };
  const out = [];
  for (let i = 0; i < k; i++) {
    let done = null;
    for (let t = 0; t < ERROR_KINDS.length && !done; t++) {
      const kind = ERROR_KINDS[(i + t) % ERROR_KINDS.length];
      const r = kinds[kind]();
      if (r) done = { kind, ...r };
    }
    if (!done) throw new Error(`cannot inject error ${i + 1} of ${k}: the document is too small for that many independent errors`);
    out.push(done);
  }
  return out;
}

// ---- rendering ------------------------------------------------------------------------------------------

export const toJson = (doc) => `${JSON.stringify(doc, null, 2)}\n`;

// Block-style YAML only (no flow collections but `[]`, no anchors), which reads back to the same value.
const YAML_WORDS = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;
const plain = (s) => /^[A-Za-z][A-Za-z0-9 _./()-]*$/.test(s) && !s.endsWith(" ") && !YAML_WORDS.test(s) && !/ \(|: /.test(s);
function yamlScalar(v, indent) {
  if (typeof v !== "string") return v === null ? "null" : String(v);
  if (v.includes("\n") && !/[ \t]$/m.test(v) && !v.startsWith(" ") && !v.endsWith("\n")) {
    const pad = " ".repeat(indent + 2);
    return `|-\n${v.split("\n").map((l) => (l ? pad + l : "")).join("\n")}`;
  }
  return plain(v) ? v : JSON.stringify(v);
}
const yamlKey = (k) => (/^[A-Za-z_$][A-Za-z0-9_.$-]*$/.test(k) && !YAML_WORDS.test(k) ? k : JSON.stringify(k));
function yamlBlock(v, indent) {
  const pad = " ".repeat(indent);
  let out = "";
  if (Array.isArray(v)) {
    for (const x of v) {
      if (x === null || typeof x !== "object") out += `${pad}- ${yamlScalar(x, indent)}\n`;
      else if (Array.isArray(x) && !x.length) out += `${pad}- []\n`;
      else out += `${pad}- ${yamlBlock(x, indent + 2).slice(indent + 2)}`;
    }
    return out;
  }
  for (const [k, x] of Object.entries(v)) {
    if (x === null || typeof x !== "object") out += `${pad}${yamlKey(k)}: ${yamlScalar(x, indent)}\n`;
    else if (Array.isArray(x) && !x.length) out += `${pad}${yamlKey(k)}: []\n`;
    else if (!Array.isArray(x) && !Object.keys(x).length) out += `${pad}${yamlKey(k)}: {}\n`;
    else out += `${pad}${yamlKey(k)}:\n${yamlBlock(x, indent + 2)}`;
  }
  return out;
}
export const toYaml = (doc, comment = "") => comment + yamlBlock(doc, 0);

// ---- command line ---------------------------------------------------------------------------------------

const USAGE = "usage: node bench/generate.mjs [--steps N] [--format json|yaml] [--seed S] [--id-style kebab|snake] [--errors K] [--out FILE]";

export function parseArgs(argv) {
  const o = { steps: "100", format: "json", seed: "1", "id-style": "kebab", errors: "0", out: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].startsWith("--") ? argv[i].slice(2) : undefined;
    if (name === undefined || !(name in o)) throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
    if (argv[i + 1] === undefined) throw new Error(`${argv[i]} needs a value\n${USAGE}`);
    o[name] = argv[i + 1];
  }
  const steps = Number(o.steps), errors = Number(o.errors);
  if (!Number.isInteger(steps) || steps < 1) throw new Error("--steps must be a positive integer");
  if (!Number.isInteger(errors) || errors < 0) throw new Error("--errors must be a non-negative integer");
  if (o.format !== "json" && o.format !== "yaml") throw new Error("--format must be json or yaml");
  if (o["id-style"] !== "kebab" && o["id-style"] !== "snake") throw new Error("--id-style must be kebab or snake");
  return { steps, errors, format: o.format, seed: o.seed, idStyle: o["id-style"], out: o.out };
}

export function render(doc, format, note) {
  return format === "json" ? toJson(doc) : toYaml(doc, `# ${note}\n`);
}

if (process.argv[1] && import.meta.url && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--help")) { process.stdout.write(`${USAGE}\n`); process.exit(0); }
  let a;
  try { a = parseArgs(process.argv.slice(2)); } catch (e) { process.stderr.write(`${e.message}\n`); process.exit(2); }
  let result;
  try { result = generate(a); } catch (e) { process.stderr.write(`${e.message}\n`); process.exit(1); }
  const text = render(result.doc, a.format, `generated by bench/generate.mjs --steps ${a.steps} --seed ${a.seed}${a.errors ? ` --errors ${a.errors}` : ""}`);
  if (a.out) {
    writeFileSync(a.out, text);
    if (result.injected.length) writeFileSync(`${a.out}.errors.json`, `${JSON.stringify(result.injected, null, 2)}\n`);
    process.stderr.write(`${a.out}: ${a.steps} steps, ${Buffer.byteLength(text)} bytes${result.injected.length ? `, ${result.injected.length} errors injected` : ""}\n`);
  } else process.stdout.write(text);
}
