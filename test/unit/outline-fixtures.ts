// Fixtures shared by the outline tests (test/unit/outline.test.ts, test/lsp/outline.test.ts): a valid
// workflow with two parallel bodies that both declare a step "one", a variant whose references do not
// resolve in their scope, and decoders for semantic tokens and selection ranges.
import { stringify as toYaml } from "yaml";
import type { SelectionRange } from "vscode-languageserver-types";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SEMANTIC_TOKENS_LEGEND } from "../../server/src/service/semanticTokens";
import { type Json, aiStep, fanInOutput, parallelWith, toolStep } from "./lwir-fixtures";

export type Format = "json" | "yaml";
export const FORMATS: Format[] = ["json", "yaml"];

export function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc, { lineWidth: 0 });
}

/**
 * load → fanA (body: one, which reads load through fanA's needs) and fanB (body: one → two), then
 * route (a decision on fanA: to report, or end), and report.
 */
export function outlineWorkflow(): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "outline-demo", version: "1.0.0" },
    input: { schema: { type: "object", properties: { topic: { type: "string" }, list: { type: "array", items: { type: "string" } } } } },
    output: { schema: { type: "object" } },
    permissions: { models: ["model-a"], tools: ["search"] },
    steps: [
      toolStep("load", { with: { tool: "search", args: { q: "{{ input.topic }}" } } }),
      {
        id: "fanA", uses: "parallel", needs: ["load"],
        with: parallelWith({ fanIn: { order: "input", output: "array", outputStep: "one" } }),
        steps: [aiStep("one", { with: { model: "model-a", prompt: "{{ item }} after {{ steps.load.output }}" }, needs: ["load"] })],
        output: fanInOutput(),
      },
      {
        id: "fanB", uses: "parallel", needs: ["load"], with: parallelWith(),
        steps: [
          aiStep("one", { with: { model: "model-a", prompt: "Draft {{ item }}" } }),
          aiStep("two", { with: { model: "model-a", prompt: "Polish {{ steps.one.output }}" }, needs: ["one"] }),
        ],
        output: fanInOutput(),
      },
      { id: "route", uses: "decision", needs: ["fanA", "fanB"], with: { cases: [{ when: "{{ steps.fanA.output }}", to: "report" }], default: "end" } },
      aiStep("report", { with: { model: "model-a", prompt: "Report on {{ input.topic }}" } }),
    ],
  };
}

/** Semantic tokens of outlineWorkflow() in source order: id text, type, modifiers. */
export const OUTLINE_TOKENS = [
  "load function declaration", "fanA function declaration", "load function", "one function", "one function declaration",
  "load function", "load function", "fanB function declaration", "load function", "one function declaration",
  "two function declaration", "one function", "one function", "route function declaration", "fanA function", "fanB function",
  "fanA function", "report function", "end function defaultLibrary", "report function declaration",
];

/**
 * outlineWorkflow() with references that do not resolve where they are: fanA's body reads `two` (only
 * fanB's body has one), report reads `one` (only the bodies have one) and needs `ghost`, route's default
 * names no step.
 */
export function scopedWorkflow(): Json {
  const doc = outlineWorkflow();
  doc.steps[1].steps.push(aiStep("three", { with: { model: "model-a", prompt: "{{ steps.two.output }} and {{ steps.one.output }}" } }));
  doc.steps[3].with.default = "nowhere";
  doc.steps[4].with.prompt = "Report {{ steps.one.output }}";
  doc.steps[4].needs = ["ghost", "route"];
  return doc;
}

export const SCOPED_TOKENS = [
  "load function declaration", "fanA function declaration", "load function", "one function", "one function declaration",
  "load function", "load function", "three function declaration", "two variable unresolved", "one function",
  "fanB function declaration", "load function", "one function declaration",
  "two function declaration", "one function", "one function", "route function declaration", "fanA function", "fanB function",
  "fanA function", "report function", "nowhere variable unresolved", "report function declaration", "one variable unresolved",
  "ghost variable unresolved", "route function",
];

export interface DecodedToken {
  line: number;
  character: number;
  length: number;
  type: string;
  modifiers: string[];
  /** The source text under the token. */
  text: string;
}

/** Decodes LSP relative token data with the server's legend, reading each token's text from the source. */
export function decodeTokens(data: readonly number[], text: string): DecodedToken[] {
  const doc = TextDocument.create("untitled:t", "plaintext", 0, text);
  const out: DecodedToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dl, dc, length, type, bits] = data.slice(i, i + 5);
    line += dl;
    character = dl === 0 ? character + dc : dc;
    const modifiers = SEMANTIC_TOKENS_LEGEND.tokenModifiers.filter((_, k) => (bits & (1 << k)) !== 0);
    const start = doc.offsetAt({ line, character });
    out.push({ line, character, length, type: SEMANTIC_TOKENS_LEGEND.tokenTypes[type], modifiers, text: text.slice(start, start + length) });
  }
  return out;
}

export function tokenSummary(tokens: readonly DecodedToken[]): string[] {
  return tokens.map((t) => [t.text, t.type, ...t.modifiers].join(" "));
}

/** The texts of a selection range chain, innermost first. */
export function selectionTexts(range: SelectionRange, text: string): string[] {
  const doc = TextDocument.create("untitled:t", "plaintext", 0, text);
  const out: string[] = [];
  for (let r: SelectionRange | undefined = range; r; r = r.parent) out.push(text.slice(doc.offsetAt(r.range.start), doc.offsetAt(r.range.end)));
  return out;
}

/** Every parent strictly contains its child (as offsets). */
export function strictlyNested(range: SelectionRange, text: string): boolean {
  const doc = TextDocument.create("untitled:t", "plaintext", 0, text);
  for (let r: SelectionRange | undefined = range; r?.parent; r = r.parent) {
    const [a, b] = [doc.offsetAt(r.range.start), doc.offsetAt(r.range.end)];
    const [c, d] = [doc.offsetAt(r.parent.range.start), doc.offsetAt(r.parent.range.end)];
    if (!(c <= a && b <= d && (c < a || b < d))) return false;
  }
  return true;
}
