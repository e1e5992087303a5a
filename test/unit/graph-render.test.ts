// The graph's renderings on every corpus document: Mermaid parses with Mermaid's own flowchart parser,
// DOT renders with Graphviz (@viz-js/viz) without a warning, SVG is well-formed XML (a strict checker
// below), JSON follows the contract; hostile ids are escaped; `lwir graph` exit codes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CONFORMANCE, REALWORLD, ROOT, corpusCases } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { buildGraph, type WorkflowGraph } from "../../server/src/graph/model";
import { toDot, toJson, toMermaid, toSvg, xmlEscape } from "../../server/src/graph/render";
import { parseArgs } from "../../server/src/cli/args";
import { runGraph } from "../../server/src/cli/graph";

const CASES = [...corpusCases(CONFORMANCE), ...corpusCases(REALWORLD)];
const graphs: Array<{ name: string; graph: WorkflowGraph }> = CASES.map((c) => {
  const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
  return { name: c.name, graph: buildGraph(analysis.document.value, { findings: analysis.findings }) };
});
/** Ids and labels that break a careless renderer. */
const HOSTILE = buildGraph({ steps: [
  { id: "a\"b<c>&'d", uses: "ai.generate", with: { model: "m]]\n}" } },
  { id: "e` --> f; %%", uses: "decision", needs: ["a\"b<c>&'d", "ghost\\\"x"], with: { cases: [{ when: "{{ x < 1 && y > \"2\" }} | \u0001 \ud800", to: "end" }], default: "a\"b<c>&'d" } },
  { id: "p", uses: "parallel", with: { items: "{{ input.x }}" }, steps: [{ id: "subgraph", uses: "tool.call", with: { tool: "end" } }, { id: "end", uses: "code.run" }] },
] }, { findings: [{ segments: ["steps", 0], message: "</title><script>alert(1)</script>" }] });

// Mermaid: its own parser (mermaid.parse), loaded as the ES module it is. Mermaid sanitises labels with
// DOMPurify, which needs a DOM this process does not have; sanitising is part of rendering, not of
// parsing, so the DOMPurify instance Mermaid imports is given no-op hooks and an identity sanitize.
async function loadMermaid(): Promise<{ parse(text: string): Promise<unknown> }> {
  const load = (file: string) => import(pathToFileURL(join(ROOT, "node_modules", file)).href) as Promise<{ default: Record<string, unknown> }>;
  const purify = (await load("dompurify/dist/purify.es.mjs")).default;
  Object.assign(purify, { addHook() {}, removeHook() {}, removeHooks() {}, removeAllHooks() {}, sanitize: (s: string) => s });
  return (await load("mermaid/dist/mermaid.core.mjs")).default as unknown as { parse(text: string): Promise<unknown> };
}

describe("Mermaid", () => {
  test("every corpus document's flowchart parses with Mermaid's parser; a broken one does not", async () => {
    const mermaid = await loadMermaid();
    await assert.rejects(mermaid.parse("flowchart TD\n  n0[\"a\"b\"]\n"), "the parser rejects a broken label");
    for (const { name, graph } of [...graphs, { name: "hostile ids", graph: HOSTILE }]) {
      const text = toMermaid(graph);
      await assert.doesNotReject(mermaid.parse(text), `${name}:\n${text}`);
    }
  });

  test("labels carry no raw quote, bracket or angle bracket from the document", () => {
    const text = toMermaid(HOSTILE);
    for (const line of text.split("\n").filter((l) => /^\s*n\d+[([{>]/.test(l))) {
      const inner = /"(.*)"/.exec(line)![1];
      assert.doesNotMatch(inner.replace(/<br\/>/g, ""), /["<>[\]{}`]/, line);
    }
    assert.match(text, /subgraph n\d+\["p/);
  });
});

describe("DOT", () => {
  test("every corpus document renders with Graphviz without warnings", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const viz = await (require("@viz-js/viz") as { instance(): Promise<{ render(dot: string, o: { format: string }): { status: string; errors: Array<{ level?: string; message: string }> } }> }).instance();
    const broken = viz.render("digraph { a -> }", { format: "svg" });
    assert.equal(broken.status, "failure", "Graphviz rejects a broken graph");
    const warned = viz.render("digraph { a [shape=nosuchshape] }", { format: "svg" });
    assert.ok(warned.errors.some((e) => e.level === "warning"), "Graphviz warnings are reported");
    for (const { name, graph } of [...graphs, { name: "hostile ids", graph: HOSTILE }]) {
      const dot = toDot(graph);
      const result = viz.render(dot, { format: "svg" });
      assert.equal(result.status, "success", `${name}: ${JSON.stringify(result.errors)}\n${dot}`);
      // viz's WebAssembly Graphviz has no fonts and estimates text widths from a table of ASCII
      // widths; for any other character (· in our labels, a Unicode step id) it says so. That is about
      // its font table, not about the DOT: every other warning fails the test.
      const warnings = result.errors.filter((e) => !/^Warning: no value for width of non-ASCII character \d+\. Falling back to width of space character$/.test(e.message));
      assert.deepEqual(warnings, [], `${name}: warnings\n${dot}`);
    }
  });
});

// ---- a strict XML 1.0 well-formedness checker (elements, attributes, references, comments) --------

const NAME = /^[A-Za-z_:][-A-Za-z0-9_.:]*/;
/** Throws at the first violation of well-formedness; returns the number of elements. */
export function checkXml(xml: string): number {
  let i = 0;
  const stack: string[] = [];
  let elements = 0;
  let rootClosed = false;
  const fail = (why: string): never => { throw new Error(`${why} at offset ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`); };
  const text = (s: string) => {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s)) fail("forbidden character");
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)) fail("lone surrogate");
    for (const m of s.matchAll(/&([^;]*);?/g)) {
      if (!m[0].endsWith(";") || !/^(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(m[1])) fail(`bad reference ${m[0]}`);
    }
  };
  while (i < xml.length) {
    if (xml.startsWith("<!--", i)) {
      const end = xml.indexOf("-->", i + 4);
      if (end < 0 || xml.slice(i + 4, end).includes("--")) fail("bad comment");
      i = end + 3;
    } else if (xml.startsWith("</", i)) {
      const m = NAME.exec(xml.slice(i + 2));
      if (!m) fail("bad end tag");
      const name = m![0];
      if (stack.pop() !== name) fail(`mismatched </${name}>`);
      i += 2 + name.length;
      while (/\s/.test(xml[i] ?? "")) i++;
      if (xml[i] !== ">") fail("end tag not closed");
      i++;
      if (stack.length === 0) rootClosed = true;
    } else if (xml[i] === "<") {
      if (rootClosed) fail("second root element");
      const m = NAME.exec(xml.slice(i + 1));
      if (!m) fail("bad start tag");
      const name = m![0];
      i += 1 + name.length;
      const seen = new Set<string>();
      for (;;) {
        const ws = /^\s*/.exec(xml.slice(i))![0].length;
        i += ws;
        if (xml.startsWith("/>", i)) { i += 2; elements++; if (stack.length === 0) rootClosed = true; break; }
        if (xml[i] === ">") { i++; elements++; stack.push(name); break; }
        if (ws === 0) fail("attributes need white space between them");
        const a = NAME.exec(xml.slice(i));
        if (!a) fail("bad attribute name");
        if (seen.has(a![0])) fail(`duplicate attribute ${a![0]}`);
        seen.add(a![0]);
        i += a![0].length;
        if (xml[i] !== "=") fail("attribute without =");
        const quote = xml[i + 1];
        if (quote !== '"' && quote !== "'") fail("unquoted attribute");
        const end = xml.indexOf(quote, i + 2);
        if (end < 0) fail("unterminated attribute");
        const value = xml.slice(i + 2, end);
        if (value.includes("<")) fail("< in attribute");
        text(value);
        i = end + 1;
      }
    } else {
      const next = xml.indexOf("<", i);
      const chunk = xml.slice(i, next < 0 ? xml.length : next);
      if ((stack.length === 0) && chunk.trim() !== "") fail("text outside the root element");
      if (chunk.includes("]]>")) fail("]]> in text");
      text(chunk);
      i = next < 0 ? xml.length : next;
    }
  }
  if (stack.length > 0) fail(`unclosed <${stack[stack.length - 1]}>`);
  if (!rootClosed) fail("no root element");
  return elements;
}

describe("SVG", () => {
  test("the checker rejects what is not well-formed", () => {
    for (const bad of ["<a>", "<a></b>", "<a x=1/>", "<a x='1' x='2'/>", "<a>&nope;</a>", "<a>&amp</a>", "<a/><b/>", "<a>\u0001</a>", "<a>x < y</a>", "text<a/>"]) {
      assert.throws(() => checkXml(bad), Error, bad);
    }
    assert.equal(checkXml("<a x=\"1\"><!-- c --><b y='&amp;&#60;'/>t&lt;</a>"), 2);
  });

  test("every corpus document's SVG is well-formed, standalone, and shows every node", () => {
    for (const { name, graph } of [...graphs, { name: "hostile ids", graph: HOSTILE }]) {
      const svg = toSvg(graph);
      assert.doesNotThrow(() => checkXml(svg), name);
      assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.doesNotMatch(svg, /<script|href=|url\((?!#)|@import/i, `${name}: nothing external or active`);
      assert.equal((svg.match(/<g class="node/g) ?? []).length, graph.nodes.length, `${name}: one group per node`);
    }
  });

  test("each edge is drawn with the graph view's look for its kind: its colour, dash and arrowhead", () => {
    const looks = new Set<string>();
    for (const { name, graph } of graphs) {
      const svg = toSvg(graph);
      for (const [, look, stroke, dash, marker] of svg.matchAll(/<g class="edge [^"]*look-(\w+)">\n<path d="[^"]*" fill="none" stroke="([^"]+)" stroke-width="[^"]+"(?: stroke-dasharray="([^"]+)")? marker-end="url\(#arrow-(\w+)\)"/g)) {
        looks.add(look);
        assert.equal(marker, look, `${name}: the ${look} edge's arrowhead`);
        const expected = { needs: ["#888", undefined], case: ["#3b82f6", undefined], default: ["#3b82f6", "7 4"], loop: ["#d97706", "9 3 2 3"], dangling: ["#d1242f", "2 3"] }[look];
        assert.deepEqual([stroke, dash], expected, `${name}: a ${look} edge`);
      }
      assert.equal((svg.match(/<g class="edge /g) ?? []).length, (svg.match(/<g class="edge [^"]*look-\w+">/g) ?? []).length, `${name}: every edge has a look`);
    }
    assert.deepEqual([...looks].sort(), ["case", "dangling", "default", "loop", "needs"], "the corpus shows every look");
  });

  test("escaping: markup in a finding or an id stays text", () => {
    assert.equal(xmlEscape(`<a href="x">&'`), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    assert.equal(xmlEscape("a\u0001b\ud800c"), "ab\ufffdc");
    assert.match(toSvg(HOSTILE), /&lt;\/title&gt;&lt;script&gt;/);
  });
});

describe("JSON contract", () => {
  test("nodes carry id, uses, scope; edges from, to, kind and label when there is one", () => {
    for (const { name, graph } of graphs) {
      const json = JSON.parse(toJson(graph)) as { nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> };
      assert.equal(json.nodes.length, graph.nodes.length, name);
      for (const n of json.nodes) {
        assert.equal(typeof n.id, "string");
        assert.ok(typeof n.uses === "string" || n.uses === null);
        assert.equal(typeof n.scope, "string");
      }
      const ids = new Set(json.nodes.map((n) => n.id));
      for (const e of json.edges) {
        assert.ok(ids.has(e.from) && ids.has(e.to), name);
        assert.ok(["needs", "transition", "default", "end"].includes(e.kind as string));
        assert.ok(e.label === undefined || typeof e.label === "string");
      }
    }
  });
});

describe("lwir graph", () => {
  const dir = mkdtempSync(join(tmpdir(), "lwir-graph-"));
  const valid = join(REALWORLD, "demo-kill-resume-parallel-review.lwir.json");
  const invalid = join(CONFORMANCE, "cycle--self-need.lwir.yaml");
  const broken = join(dir, "broken.lwir.json");
  writeFileSync(broken, '{"steps": [');

  test("arguments", () => {
    assert.deepEqual(parseArgs(["graph", "f.lwir.json"]), { kind: "graph", file: "f.lwir.json" });
    assert.deepEqual(parseArgs(["graph", "--format=dot", "f", "-o", "out.gv"]), { kind: "graph", file: "f", format: "dot", output: "out.gv" });
    assert.equal(parseArgs(["graph"]).kind, "usage-error");
    assert.equal(parseArgs(["graph", "a", "b"]).kind, "usage-error");
    assert.equal(parseArgs(["graph", "a", "--format", "png"]).kind, "usage-error");
    assert.equal(parseArgs(["graph", "a", "--nope"]).kind, "usage-error");
  });

  test("valid: exit 0 and the drawing; invalid: still drawn, exit 1; unparsable: the parse error, exit 1; unreadable: exit 2", () => {
    const ok = runGraph({ file: valid });
    assert.equal(ok.code, 0);
    assert.match(ok.stdout, /^flowchart TD\n/);
    assert.equal(ok.stderr, "");
    const bad = runGraph({ file: invalid, format: "json" });
    assert.equal(bad.code, 1);
    assert.equal((JSON.parse(bad.stdout) as { nodes: unknown[] }).nodes.length, 1);
    assert.match(bad.stderr, /1 finding/);
    const parse = runGraph({ file: broken });
    assert.equal(parse.code, 1);
    assert.equal(parse.stdout, "");
    assert.match(parse.stderr, /broken\.lwir\.json:1:\d+ {2}error {2}parse {2}/);
    const missing = runGraph({ file: join(dir, "none.lwir.json") });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^lwir: cannot read/);
  });

  test("-o writes the file, its extension choosing the format", () => {
    const out = join(dir, "g.svg");
    const r = runGraph({ file: valid, output: out });
    assert.deepEqual([r.code, r.stdout], [0, ""]);
    assert.doesNotThrow(() => checkXml(readFileSync(out, "utf8")));
    runGraph({ file: valid, output: join(dir, "g.gv") });
    assert.match(readFileSync(join(dir, "g.gv"), "utf8"), /^digraph workflow \{/);
  });

  test("the built CLI (npm run build first): lwir --help lists graph; exit codes end to end", () => {
    assert.ok(existsSync(resolve("dist/cli.js")), "dist/cli.js is missing: run npm run build first");
    const cli = (...args: string[]) => spawnSync(process.execPath, [resolve("dist/cli.js"), ...args], { encoding: "utf8" });
    assert.match(cli("--help").stdout, /lwir graph \[--format mermaid\|dot\|svg\|json\] \[-o OUTPUT\] \[--stdin-filename NAME\] FILE\|-/);
    assert.equal(cli("graph", valid, "--format", "dot").status, 0);
    assert.equal(cli("graph", invalid).status, 1);
    const parse = cli("graph", broken);
    assert.equal(parse.status, 1);
    // the same lines lwir validate prints for the parse error
    assert.equal(parse.stderr, cli("validate", broken).stdout);
  });
});
