// Issue #22's "The graph, readable", in the real workbench: on a large real workflow (the sp500 investor
// report, with a decision loop, a default route and a `needs` typo added so that every kind of edge and
// an error badge on the parallel step are there) the view's labels are whole inside their boxes, the
// fan-in sits inside its box clear of the badge, each edge kind has a look of its own (dash, width,
// arrowhead: computed styles, not only colour) shown in a legend, the toolbar is one row with its
// placeholder whole, search finds what the nodes show and counts what it highlights, a document that
// never parsed says so (not "the last good graph") and is fitted and centred once it parses; and WCAG AA
// contrast (text 4.5:1, lines and marks 3:1) measured from the computed styles of the page, alpha
// composited over what each thing sits on, in the light, dark and both high-contrast themes.
// Called from graph.mjs's graphChecks (code-server and VS Code for the Web).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { ROOT, log } from "../lib.mjs";

const SP500 = join(ROOT, "test", "corpus", "realworld", "demo-sp500-investor-report.lwir.yaml");
export const KINDS_FILE = "sp500-kinds.lwir.yaml";
export const BROKEN_FILE = "sp500-broken.lwir.yaml";
/** The edge looks of the view (webview/graph/view.ts EDGE_LOOKS): the fixture has one of each. */
const LOOKS = ["needs", "case", "default", "loop", "dangling"];
export const THEMES = ["Light Modern", "Dark Modern", "Dark High Contrast", "Light High Contrast"];

/** The sp500 workflow with a loop, a default route, a route to end and a needs typo on its parallel step. */
export function kindsFixture() {
  const doc = parseYaml(readFileSync(SP500, "utf8"));
  const fan = doc.steps.find((s) => s.uses === "parallel");
  fan.needs = [...fan.needs, "load-dosiers"]; // names no step: a dangling edge, an error badge on the box
  const select = doc.steps.find((s) => s.id === "select-recommendations");
  select.maxVisits = 3;
  doc.permissions.tools.push("reports.publish");
  doc.steps.push({
    id: "review-report", uses: "decision", needs: ["select-recommendations"], maxVisits: 3,
    with: {
      cases: [
        { when: "{{ input.recommendationCount > 10 }}", to: "end" },
        { when: "{{ steps.select-recommendations.output == '' }}", to: "select-recommendations" },
      ],
      default: "publish-report",
    },
  });
  doc.steps.push({ id: "publish-report", uses: "tool.call", with: { tool: "reports.publish", input: {} }, output: { mode: "text" } });
  return stringifyYaml(doc, { lineWidth: 0 });
}

export function placeReadableFiles(workspace) {
  const text = kindsFixture();
  writeFileSync(join(workspace, KINDS_FILE), text);
  // the same workflow with a colon missing after `steps`: it never parses until the colon is typed
  writeFileSync(join(workspace, BROKEN_FILE), text.replace(/^steps:$/m, "steps"));
}

// ---- in the page (serialized by Playwright: no closures) ------------------------------------------------

/** Every text and mark of the view with its contrast against what it sits on, and the colours measured. */
function measureContrast() {
  const parse = (s) => {
    let m = /^rgba?\(([^)]+)\)$/.exec(s);
    if (m) {
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    }
    m = /^color\(srgb ([^)]+)\)$/.exec(s);
    if (m) {
      const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return { r: p[0] * 255, g: p[1] * 255, b: p[2] * 255, a: p.length > 3 ? p[3] : 1 };
    }
    return undefined; // none, transparent keyword, url(...)
  };
  const over = (top, bottom) => {
    const a = top.a + bottom.a * (1 - top.a);
    if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
    const mix = (c) => (top[c] * top.a + bottom[c] * bottom.a * (1 - top.a)) / a;
    return { r: mix("r"), g: mix("g"), b: mix("b"), a };
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const hex = (c) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
  /** Opacity of an element and its ancestors multiplied. */
  const opacity = (el) => { let o = 1; for (let e = el; e && e.nodeType === 1; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const SHAPES = new Set(["rect", "circle", "ellipse", "path", "polygon"]);
  /** The colour a painted element puts on the page at a point (its fill or background), or undefined. */
  const paint = (el) => {
    const cs = getComputedStyle(el);
    if (el instanceof SVGElement) {
      if (!SHAPES.has(el.tagName)) return undefined;
      const c = parse(cs.fill);
      return c && { ...c, a: c.a * Number(cs.fillOpacity) * opacity(el) };
    }
    const c = parse(cs.backgroundColor);
    return c && { ...c, a: c.a * opacity(el) };
  };
  const body = parse(getComputedStyle(document.body).backgroundColor);
  /** The background at a client point: the painted layers under it (skipping `skip(el)`), composited. */
  const backgroundAt = (x, y, skip) => {
    const layers = [];
    for (const el of document.elementsFromPoint(x, y)) {
      if (skip(el)) continue;
      const c = paint(el);
      if (!c || c.a === 0) continue;
      layers.push(c);
      if (c.a >= 1) break;
    }
    let bg = { ...body, a: 1 };
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const canvas = document.getElementById("canvas").getBoundingClientRect();
  const onScreen = (r) => r.width > 0 && r.height > 0 && r.left >= canvas.left - 1 && r.right <= canvas.right + 1 && r.top >= canvas.top - 1 && r.bottom <= canvas.bottom + 1;
  const items = [];
  const record = (kind, what, fg, bg, need) => items.push({ kind, what, fg: hex(fg), bg: hex(bg), ratio: Math.round(ratio(fg, bg) * 100) / 100, need });
  const inside = (el, sel) => el.closest(sel) !== null;

  // text in the drawing and the legend: fill over what is under its middle
  for (const t of document.querySelectorAll("svg text")) {
    const r = t.getBoundingClientRect();
    if (t.closest("#canvas") && !onScreen(r)) continue;
    const fill = parse(getComputedStyle(t).fill);
    if (!fill) continue;
    const bg = backgroundAt(r.left + r.width / 2, r.top + r.height / 2, (el) => el === t || el.tagName === "text" || el.tagName === "tspan");
    record("text", `text "${t.textContent}"`, over({ ...fill, a: fill.a * opacity(t) }, bg), bg, 4.5);
  }
  // HTML text: toolbar buttons, status, the search box (value and placeholder), the legend, the messages
  const htmlText = (el, what, colour) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || el.closest("[hidden]")) return;
    const c = parse(colour ?? getComputedStyle(el).color);
    const bg = backgroundAt(r.left + Math.min(6, r.width / 2), r.top + r.height / 2, (x) => x.tagName === "svg" && x.classList.contains("sample") || inside(x, "svg.sample"));
    record("text", what, over({ ...c, a: c.a * opacity(el) }, bg), bg, 4.5);
  };
  for (const b of document.querySelectorAll(".toolbar button")) htmlText(b, `button "${b.textContent}"`);
  const search = document.getElementById("search");
  htmlText(search, "the search box's text");
  htmlText(search, "the search box's placeholder", getComputedStyle(search, "::placeholder").color);
  for (const el of document.querySelectorAll("#status, #banner, #empty, .legend .item")) if (el.textContent.trim() !== "") htmlText(el, `${el.id || "legend"} "${el.textContent.trim().slice(0, 40)}"`);

  // lines: each edge's stroke at a few points along it, against what is under it there (not other edges)
  const strokeOf = (el) => { const cs = getComputedStyle(el); const c = parse(cs.stroke); return c && { ...c, a: c.a * Number(cs.strokeOpacity) * opacity(el) }; };
  const alongPath = (path, kind, what, skip) => {
    const stroke = strokeOf(path);
    if (!stroke) return;
    const length = path.getTotalLength();
    const m = path.getScreenCTM();
    for (const f of [0.2, 0.35, 0.5, 0.65, 0.8]) {
      const p = new DOMPoint(path.getPointAtLength(length * f).x, path.getPointAtLength(length * f).y).matrixTransform(m);
      if (!onScreen({ left: p.x, right: p.x, top: p.y, bottom: p.y, width: 1, height: 1 }) && path.closest("#canvas")) continue;
      // where a label or a node covers the line it is not seen: nothing to measure there
      const top = document.elementsFromPoint(p.x, p.y).find((el) => !skip(el));
      if (top && (top.closest(".label") || top.closest(".node") || top.closest(".badge") || top.closest(".visits"))) continue;
      const bg = backgroundAt(p.x, p.y, skip);
      record("mark", `${what} at ${Math.round(f * 100)}%`, over(stroke, bg), bg, 3);
    }
  };
  for (const g of document.querySelectorAll("#canvas g.edge")) {
    alongPath(g.querySelector("path"), "mark", `edge ${g.dataset.from} -> ${g.dataset.to} (${g.dataset.look})`, (el) => inside(el, "g.edges"));
  }
  for (const g of document.querySelectorAll(".legend svg.sample g.edge")) {
    alongPath(g.querySelector("path"), "mark", `legend sample ${g.getAttribute("class")}`, (el) => inside(el, "svg.sample"));
  }
  // arrowheads: their colour against the background at the edge's end
  for (const g of document.querySelectorAll("#canvas g.edge, .legend svg.sample g.edge")) {
    const path = g.querySelector("path");
    const id = /url\(["']?#([^"')]+)/.exec(path.getAttribute("marker-end") ?? "")?.[1];
    const head = id && document.getElementById(id)?.querySelector("path");
    if (!head) continue;
    const cs = getComputedStyle(head);
    const c = parse(cs.fill) ?? parse(cs.stroke);
    if (!c) continue;
    const end = path.getPointAtLength(Math.max(0, path.getTotalLength() - 3));
    const p = new DOMPoint(end.x, end.y).matrixTransform(path.getScreenCTM());
    if (path.closest("#canvas") && !onScreen({ left: p.x, right: p.x, top: p.y, bottom: p.y, width: 1, height: 1 })) continue;
    const bg = backgroundAt(p.x, p.y, (el) => inside(el, "g.edges") || inside(el, "svg.sample"));
    record("mark", `arrowhead of ${g.dataset.look ?? g.getAttribute("class")}`, over(c, bg), bg, 3);
  }
  // box borders (nodes, parallel boxes) against the background just outside them; badges and stripes
  // against what they sit on
  for (const rect of document.querySelectorAll("#canvas rect.box, #canvas rect.group")) {
    const r = rect.getBoundingClientRect();
    if (!onScreen(r)) continue;
    const stroke = strokeOf(rect);
    if (!stroke || getComputedStyle(rect).stroke === "none") continue;
    const g = rect.parentElement;
    const bg = backgroundAt(r.left - 2, r.top + r.height / 2, (el) => inside(el, "g.edges") || el === rect || g.contains(el));
    record("mark", `border of ${g.dataset.id}`, over(stroke, bg), bg, 3);
  }
  for (const shape of document.querySelectorAll("#canvas .badge circle, #canvas .visits rect, #canvas rect.stripe")) {
    const r = shape.getBoundingClientRect();
    if (!onScreen(r)) continue;
    const c = paint(shape);
    const g = shape.closest(".badge, .visits") ?? shape;
    const bg = backgroundAt(r.left + r.width / 2, r.top + r.height / 2, (el) => el === shape || g.contains(el) || inside(el, "g.edges"));
    record("mark", `${shape.getAttribute("class") ?? g.getAttribute("class")} of ${shape.closest("[data-id]")?.dataset.id}`, over(c, bg), bg, 3);
  }
  return { items, body: hex(body) };
}

/** Per look: the computed stroke, width, dash pattern, and the arrowhead's shape and fill, in the drawing and in the legend. */
function edgeLooks() {
  const describe = (g) => {
    const path = g.querySelector("path");
    const cs = getComputedStyle(path);
    const id = /url\(["']?#([^"')]+)/.exec(path.getAttribute("marker-end") ?? "")?.[1];
    const head = id ? document.getElementById(id)?.querySelector("path") : null;
    const hs = head ? getComputedStyle(head) : null;
    return { stroke: cs.stroke, width: cs.strokeWidth, dash: cs.strokeDasharray, head: head ? `${head.getAttribute("d")} fill:${hs.fill === "none" ? "none" : "filled"}` : "none" };
  };
  const drawing = {};
  for (const g of document.querySelectorAll("#canvas g.edge")) (drawing[g.dataset.look] ??= []).push(describe(g));
  const legend = {};
  for (const item of document.querySelectorAll(".legend .item")) {
    const g = item.querySelector("g.edge");
    legend[item.dataset.look] = { text: item.textContent.trim(), ...(g ? describe(g) : {}) };
  }
  return { drawing, legend };
}

/** Text cut with "…" or drawn past its box, and the fan-in's place in its parallel box. */
function labelFit() {
  const problems = [];
  for (const g of document.querySelectorAll("#canvas [data-id]")) {
    const box = g.querySelector(":scope > rect.box, :scope > rect.group");
    if (!box) continue;
    const b = box.getBBox();
    for (const t of g.querySelectorAll(":scope > text, :scope > .fan > text")) {
      const r = t.getBBox();
      if (t.textContent.includes("…")) problems.push(`${g.dataset.id}: "${t.textContent}" is cut`);
      if (r.x < b.x - 0.5 || r.x + r.width > b.x + b.width + 0.5 || r.y < b.y - 0.5 || r.y + r.height > b.y + b.height + 0.5) {
        problems.push(`${g.dataset.id}: "${t.textContent}" (x ${r.x.toFixed(1)}..${(r.x + r.width).toFixed(1)}, y ${r.y.toFixed(1)}..${(r.y + r.height).toFixed(1)}) is outside its box (x ${b.x}..${b.x + b.width}, y ${b.y}..${b.y + b.height})`);
      }
    }
    const fanIn = g.querySelector(".fan-in text");
    if (fanIn) {
      const r = fanIn.getBBox();
      if (r.y + r.height > b.y + b.height - 2) problems.push(`${g.dataset.id}: the fan-in "${fanIn.textContent}" is on the box's bottom border`);
      const badge = g.querySelector(".badge");
      if (badge) {
        const k = badge.getBBox();
        const overlap = !(k.x + k.width < r.x || r.x + r.width < k.x || k.y + k.height < r.y || r.y + r.height < k.y);
        if (overlap) problems.push(`${g.dataset.id}: the error badge covers the fan-in "${fanIn.textContent}"`);
      }
    }
  }
  return problems;
}

/** The toolbar: its rows, and whether the search box shows its placeholder whole. */
function toolbarFit() {
  const bar = document.querySelector(".toolbar");
  const controls = [...bar.querySelectorAll("input, button")].filter((e) => e.getBoundingClientRect().width > 0);
  const tops = new Set(controls.map((e) => Math.round(e.getBoundingClientRect().top)));
  const hidden = controls.filter((e) => e.getBoundingClientRect().right > bar.getBoundingClientRect().right + 0.5).map((e) => e.id);
  const input = document.getElementById("search");
  const cs = getComputedStyle(input);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const textWidth = ctx.measureText(input.placeholder).width;
  const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18; // the search box's clear button
  return { rows: tops.size, hidden, placeholder: input.placeholder, textWidth: Math.round(textWidth), room: Math.round(room), width: Math.round(bar.getBoundingClientRect().width) };
}

/** Where the drawing is in the canvas: its margins left and right, top and bottom (client pixels). */
function drawingPlacement() {
  const c = document.getElementById("canvas").getBoundingClientRect();
  const d = document.getElementById("viewport").getBoundingClientRect();
  return { left: Math.round(d.left - c.left), right: Math.round(c.right - d.right), top: Math.round(d.top - c.top), bottom: Math.round(c.bottom - d.bottom), width: Math.round(d.width), canvas: Math.round(c.width) };
}

/** The highlighted nodes with the name drawn on them, and the status line. */
function searchState() {
  const marked = [...document.querySelectorAll("#canvas .match[data-id]")].map((g) => ({ id: g.dataset.id, drawn: (g.querySelector(":scope > text")?.textContent ?? "").replace(/^\S+ /, "") }));
  return { marked, status: document.getElementById("status").textContent };
}

// ---- the checks ----------------------------------------------------------------------------------------

/**
 * "Preferences: Color Theme" → `label` (not wb.command: it waits for the quick input to close, and this
 * command opens another one in it). The picker's list is virtual (only the rows in view exist): wait
 * for it to show, then type the name (text typed before it shows is lost) until the first row is it.
 */
export async function pickTheme(page, wb, label) {
  await wb.quickInput("F1", "Preferences: Color Theme");
  const rows = page.locator(".quick-input-widget .monaco-list-row");
  await rows.filter({ has: page.locator(".label-name", { hasText: /^Preferences: Color Theme$/ }) }).first().click();
  await rows.filter({ has: page.locator(".label-name", { hasText: /Modern|High Contrast|Default/ }) }).first().waitFor();
  await page.locator(".quick-input-widget .quick-input-box input").focus();
  await page.keyboard.type(label);
  await page.waitForFunction((name) => {
    const first = [...document.querySelectorAll(".quick-input-widget .monaco-list-row")].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))[0];
    return (first?.querySelector(".label-name")?.textContent ?? "").trim() === name;
  }, label);
  await page.keyboard.press("Enter");
  await wb.quickInputClosed();
}

export async function readableChecks({ page, wb, run, view, body, waitForAttr, closeAll, screenshots, codeServerOnly }) {
  const setTheme = (label) => pickTheme(page, wb, label);
  const evaluate = (fn) => body().evaluate(fn);
  const shot = async (name) => { if (screenshots) await page.screenshot({ path: join(screenshots, name) }).catch(() => {}); };
  const expected = parseYaml(kindsFixture());
  const stepCount = (steps) => (steps ?? []).reduce((n, s) => n + 1 + stepCount(s.steps), 0);
  const steps = stepCount(expected.steps);

  let opened = false;
  await run("graph readable: the sp500 workflow's graph opens (every kind of edge, a parallel step with an error)", async () => {
    await closeAll();
    await wb.openFromExplorer(KINDS_FILE);
    await wb.command("LWIR: Open Graph");
    await waitForAttr("data-nodes", (v) => Number(v) === steps, `${steps} step nodes`, 60_000);
    await view().locator('g.container.errors[data-id="analyze-companies"]').waitFor();
    opened = true;
  });
  if (!opened) return;

  await run("graph readable: labels are whole inside their boxes; the fan-in is inside its parallel box, clear of the error badge", async () => {
    await view().locator("#fit").click();
    const problems = await evaluate(labelFit);
    await shot("graph-readable-labels.png");
    if (problems.length > 0) throw new Error(problems.join("\n"));
  });

  await run("graph readable: each edge kind has its own look (dash, width or arrowhead, not only colour), shown in a legend", async () => {
    const { drawing, legend } = await evaluate(edgeLooks);
    const missing = LOOKS.filter((l) => !drawing[l]);
    if (missing.length > 0) throw new Error(`no edge drawn as ${missing.join(", ")}: looks drawn ${JSON.stringify(Object.keys(drawing))}`);
    const shape = (d) => `${d.width}|${d.dash}|${d.head}`;
    for (const l of LOOKS) {
      const kinds = new Set(drawing[l].map(shape));
      if (kinds.size !== 1) throw new Error(`${l} edges are drawn in ${kinds.size} ways: ${[...kinds].join(" / ")}`);
    }
    const shapes = LOOKS.map((l) => shape(drawing[l][0]));
    if (new Set(shapes).size !== LOOKS.length) throw new Error(`two edge kinds differ only in colour: ${LOOKS.map((l, i) => `${l}: ${shapes[i]}`).join("; ")}`);
    for (const l of LOOKS) {
      if (!legend[l]) throw new Error(`the legend has no entry for ${l}: ${JSON.stringify(legend)}`);
      const d = drawing[l][0];
      if (legend[l].stroke !== d.stroke || legend[l].dash !== d.dash || legend[l].head !== d.head) {
        throw new Error(`the legend's ${l} (${JSON.stringify(legend[l])}) is not drawn like the graph's (${JSON.stringify(d)})`);
      }
    }
    log("code-server", `graph readable: edge looks ${LOOKS.map((l, i) => `${l} ${shapes[i]}`).join("; ")}`);
  });

  await run("graph readable: the toolbar is one row and shows the search placeholder whole", async () => {
    const t = await evaluate(toolbarFit);
    if (t.rows !== 1 || t.hidden.length > 0) throw new Error(`the toolbar (${t.width}px) has ${t.rows} rows; cut off: ${t.hidden.join(", ") || "none"}`);
    if (t.textWidth > t.room) throw new Error(`the placeholder "${t.placeholder}" needs ${t.textWidth}px, the box has ${t.room}px`);
  });

  await run("graph readable: search finds the names drawn on the nodes and counts what it highlights", async () => {
    const search = view().locator("#search");
    for (const query of ["rev", "analyze"]) {
      await search.fill("");
      await search.click();
      await page.keyboard.type(query, { delay: 60 });
      const want = [];
      const walk = (list, prefix) => { for (const s of list ?? []) { if (s.id.toLowerCase().includes(query)) want.push(`${prefix}${s.id}`); walk(s.steps, `${prefix}${s.id}.`); } };
      walk(expected.steps, "");
      let state;
      const until = Date.now() + 10_000;
      for (;;) {
        state = await evaluate(searchState);
        const count = /^(\d+) match/.exec(state.status)?.[1];
        const ok = state.marked.every((m) => m.drawn.toLowerCase().includes(query)) && Number(count) === state.marked.length
          && JSON.stringify(state.marked.map((m) => m.id).sort()) === JSON.stringify(want.sort());
        if (ok) break;
        if (Date.now() > until) throw new Error(`"${query}": highlighted ${JSON.stringify(state.marked)}, status "${state.status}"; the steps whose id contains it: ${JSON.stringify(want)}`);
        await page.waitForTimeout(100);
      }
    }
    await search.fill("");
  });

  await run("graph readable: WCAG AA contrast (text 4.5:1, lines and marks 3:1) from the computed styles, in light, dark and high-contrast themes", async () => {
    const original = await page.locator(".monaco-workbench").evaluate((e) => getComputedStyle(e).backgroundColor);
    const failures = [];
    const summary = [];
    try {
      for (const theme of THEMES) {
        await setTheme(theme);
        // the view follows the theme: wait until its body has the workbench editor's background
        const until = Date.now() + 30_000;
        for (;;) {
          const editor = await page.locator(".monaco-editor .monaco-editor-background").first().evaluate((e) => getComputedStyle(e).backgroundColor).catch(() => "");
          const mine = await body().evaluate((e) => getComputedStyle(e).backgroundColor).catch(() => "?");
          if (editor !== "" && editor === mine) break;
          if (Date.now() > until) throw new Error(`${theme}: the view's background ${mine} never became the editor's ${editor}`);
          await page.waitForTimeout(200);
        }
        await page.waitForTimeout(300);
        await view().locator("#fit").click();
        const { items, body: bg } = await evaluate(measureContrast);
        await shot(`graph-contrast-${theme.replace(/\s+/g, "-").toLowerCase()}.png`);
        const texts = items.filter((i) => i.kind === "text");
        const marks = items.filter((i) => i.kind === "mark");
        if (texts.length < 10 || marks.length < 10) throw new Error(`${theme}: measured only ${texts.length} texts and ${marks.length} marks`);
        for (const i of items) if (i.ratio < i.need) failures.push(`${theme}: ${i.what}: ${i.fg} on ${i.bg} is ${i.ratio}:1 (needs ${i.need}:1)`);
        const min = (list) => list.reduce((m, i) => (i.ratio < m.ratio ? i : m), list[0]);
        log("code-server", `graph contrast, ${theme} (background ${bg}): ${texts.length} texts, lowest ${min(texts).ratio}:1 (${min(texts).what}); ${marks.length} marks, lowest ${min(marks).ratio}:1 (${min(marks).what})`);
        summary.push(`${theme} (background ${bg}): ${texts.length} texts, lowest ${min(texts).ratio}:1 (${min(texts).what}); ${marks.length} marks, lowest ${min(marks).ratio}:1 (${min(marks).what})`);
      }
    } finally {
      const dark = /rgb\((\d+), (\d+), (\d+)\)/.exec(original);
      await setTheme(dark && (Number(dark[1]) + Number(dark[2]) + Number(dark[3])) / 3 < 128 ? "Dark Modern" : "Light Modern").catch(() => {});
    }
    log("code-server", `graph contrast:\n  ${summary.join("\n  ")}`);
    if (failures.length > 0) throw new Error(`${failures.length} below WCAG AA:\n${[...new Set(failures)].slice(0, 40).join("\n")}`);
  });

  let neverParsed = false;
  await run("graph readable: a document that never parsed says there is no graph yet (not 'the last good graph')", async () => {
    await closeAll();
    await wb.openFromExplorer(BROKEN_FILE);
    await wb.command("LWIR: Open Graph");
    await waitForAttr("data-parse-ok", (v) => v === "false", "parseOk false", 60_000);
    const banner = await view().locator("#banner").innerText();
    if (!/does not parse/.test(banner) || /last/i.test(banner)) throw new Error(`the banner says ${JSON.stringify(banner)} with no graph to show`);
    const empty = view().locator("#empty");
    await empty.waitFor({ state: "visible" });
    if (!/no graph yet/i.test(await empty.innerText())) throw new Error(`the view says ${JSON.stringify(await empty.innerText())}`);
    if (await view().locator("g[data-id]").count() !== 0) throw new Error("nodes drawn for a document that never parsed");
    await shot("graph-never-parsed.png");
    neverParsed = true;
  });

  await run("graph readable: once a document that never parsed parses, its graph is fitted and centred in the view", async () => {
    const empty = view().locator("#empty");
    if (!neverParsed) {
      await closeAll();
      await wb.openFromExplorer(BROKEN_FILE);
      await wb.command("LWIR: Open Graph");
      await waitForAttr("data-parse-ok", (v) => v === "false", "parseOk false", 60_000);
    }
    // type the missing colon
    const broken = kindsFixture().replace(/^steps:$/m, "steps").split("\n");
    const line = broken.findIndex((l) => l === "steps") + 1;
    await wb.goto(line, 6);
    await page.keyboard.type(":");
    await waitForAttr("data-parse-ok", (v) => v === "true", "parseOk true after the colon", 60_000);
    await waitForAttr("data-nodes", (v) => Number(v) === steps, `${steps} step nodes`, 60_000);
    await view().locator("#banner").waitFor({ state: "hidden" });
    await empty.waitFor({ state: "hidden" });
    let placed;
    const until = Date.now() + 10_000;
    for (;;) {
      placed = await evaluate(drawingPlacement);
      const centred = placed.left >= 0 && placed.right >= 0 && Math.abs(placed.left - placed.right) <= Math.max(24, placed.canvas * 0.1) && placed.top >= 0 && placed.bottom >= 0;
      if (centred) break;
      if (Date.now() > until) throw new Error(`the drawing is not fitted and centred after the fix: ${JSON.stringify(placed)}`);
      await page.waitForTimeout(100);
    }
    await shot("graph-recovered.png");
    await page.keyboard.press("Backspace");
    await wb.command("File: Save");
  });
  void codeServerOnly;
}
