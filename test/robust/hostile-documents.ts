// Hostile documents for test/robust: each is built on demand (some are tens of megabytes) and says what a
// correct tool reports for it. Shared by the server and the CLI tests.
import { baseWorkflow, type Json } from "../unit/lwir-fixtures";

export const N_DEEP = 100_000;
export const MB_20 = 20 * 1024 * 1024;

export interface Expectation {
  /** A diagnostic/finding with this code must be reported (code "parse" for a parse error). */
  code: string;
  /** …and its message must match. */
  message?: RegExp;
  /** The path of the finding, when it matters. */
  path?: string;
}

export interface Hostile {
  name: string;
  /** File name (the extension picks the format). */
  file: string;
  text: () => string;
  /** What the editor must report; "none" for a valid document. */
  editor: Expectation | "none";
  /** What the CLI must report, when it differs from the editor (documents above lwir.maxFileSize). */
  cli?: Expectation | "none";
}

const json = (value: Json): string => JSON.stringify(value, null, 2) + "\n";
// output.schema without a type: the hostile documents end in steps of every kind (the run-time checks compare the two)
const YAML_HEAD = "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata: {name: hostile, version: 0.1.0}\n" +
  "input: {schema: {type: object}}\noutput: {schema: {}}\npermissions: {models: [model-a], tools: [], secrets: [], network: []}\n";

function aiStep(id: string, prompt: string, extra: Json = {}): Json {
  return { id, uses: "ai.generate", with: { model: "model-a", prompt }, output: { mode: "text" }, ...extra };
}

/** A workflow whose `extra` member holds `inner` (text spliced in as is). */
function jsonWith(inner: string): string {
  const doc = baseWorkflow();
  doc.extra = "__INNER__";
  return JSON.stringify(doc).replace('"__INNER__"', () => inner);
}

/** `steps` top-level steps in one cycle: s0 needs s(n-1), each other step the one before. */
function cycle(steps: number): string {
  const doc = baseWorkflow();
  doc.steps = Array.from({ length: steps }, (_, i) => {
    const before = `s${(i + steps - 1) % steps}`;
    return aiStep(`s${i}`, `Go on from {{ steps.${before}.lastOutput }}`, { needs: [before], maxVisits: 3 });
  });
  return json(doc);
}

/** One parallel step whose body has `steps` steps in a chain; the last one reads a step that does not exist. */
function wideParallel(steps: number): string {
  const doc = baseWorkflow();
  doc.input.schema.properties.items = { type: "array", items: { type: "object", properties: { id: { type: "string" } } } };
  const body = Array.from({ length: steps }, (_, i) =>
    aiStep(`b${i}`, i === 0 ? "Start with {{ item.id }}" : `Use {{ steps.b${i - 1}.output }} for {{ item.id }}`, i === 0 ? {} : { needs: [`b${i - 1}`] }));
  body[steps - 1].with.prompt += " and {{ steps.nowhere.output }}";
  doc.steps = [{
    id: "fan", uses: "parallel",
    with: {
      items: "{{ input.items }}", itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" }, maxBranches: 20, maxConcurrency: 4,
      failureMode: "all_settled", fanIn: { order: "input", output: "array" },
    },
    steps: body,
    output: {
      mode: "array",
      schema: {
        type: "array",
        items: {
          type: "object", required: ["itemKey", "status", "artifacts"],
          properties: {
            itemKey: { type: "string" }, status: { type: "string", enum: ["completed", "failed"] }, output: { type: "object" },
            outputRef: { type: "string" }, error: { type: "object" }, artifacts: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  }];
  return json(doc);
}

/** At least `bytes` of JSON: a workflow of many independent steps (every one is a final step: terminal.ambiguous). */
function bigJson(bytes: number): string {
  const doc = baseWorkflow();
  doc.steps = [];
  let text = "";
  while (text.length < bytes) {
    const more = Math.max(1000, Math.ceil(((bytes - text.length) / 200)));
    for (let i = 0; i < more; i++) doc.steps.push(aiStep(`s${doc.steps.length}`, `Step ${doc.steps.length} reads {{ input.topic }}`));
    text = json(doc);
  }
  return text;
}

/** At least `bytes` of YAML in block style: many independent steps (every one is a final step: terminal.ambiguous). */
function bigYaml(bytes: number): string {
  // all in plain block style, the common case (the YAML reader has a fast path for it)
  const head = "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata:\n  name: big\n  version: 0.1.0\ninput:\n  schema:\n    type: object\n" +
    "output:\n  schema:\n    type: object\npermissions:\n  models:\n    - model-a\n  tools: []\n  secrets: []\n  network: []\nsteps:\n";
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const step = `  - id: s${i}\n    uses: ai.generate\n    with:\n      model: model-a\n      prompt: "Step ${i} reads {{ input.topic }}"\n    output:\n      mode: text\n`;
    parts.push(step);
    size += step.length;
  }
  return parts.join("");
}

/** The YAML billion laughs: nine levels of nine aliases each. */
function aliasBomb(): string {
  let text = YAML_HEAD + 'lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n';
  for (let i = 1; i <= 9; i++) text += `lol${i}: &lol${i} [${Array(9).fill(`*lol${i - 1}`).join(", ")}]\n`;
  return text + "steps: *lol9\n";
}

/** Block mappings nested `levels` deep (the indentation makes it quadratic in size). */
function deepBlockMapping(levels: number): string {
  const lines: string[] = [];
  for (let i = 0; i < levels; i++) lines.push(" ".repeat(i + 2) + "k:\n");
  return YAML_HEAD + "steps: []\nextra:\n" + lines.join("") + " ".repeat(levels + 2) + "v\n";
}

export function hostileDocuments(): Hostile[] {
  return [
    {
      name: "YAML alias bomb (billion laughs)", file: "alias-bomb.lwir.yaml", text: aliasBomb,
      editor: { code: "parse", message: /alias/i },
    },
    {
      name: "recursive YAML aliases", file: "recursive-aliases.lwir.yaml",
      text: () => YAML_HEAD + "steps: []\nextra: &loop\n  self: *loop\n  list: &list [*list, *loop]\n",
      editor: { code: "lwir.non_hashable", message: /contains itself/i, path: "$" },
    },
    {
      name: `JSON arrays nested ${N_DEEP} levels`, file: "deep-arrays.lwir.json",
      text: () => jsonWith("[".repeat(N_DEEP) + "]".repeat(N_DEEP)),
      editor: { code: "lwir.non_hashable", message: /nested 100001 levels deep.*at most 5000/ },
    },
    {
      name: `JSON objects nested ${N_DEEP} levels`, file: "deep-objects.lwir.json",
      text: () => jsonWith('{"a":'.repeat(N_DEEP) + "1" + "}".repeat(N_DEEP)),
      editor: { code: "lwir.non_hashable", message: /nested 100001 levels deep/ },
    },
    {
      name: `JSON nested ${N_DEEP} levels, unclosed`, file: "deep-unclosed.lwir.json",
      text: () => jsonWith("[".repeat(N_DEEP)),
      editor: { code: "parse" },
    },
    {
      name: `YAML flow sequences nested ${N_DEEP} levels`, file: "deep-flow.lwir.yaml",
      text: () => YAML_HEAD + "steps: []\nextra: " + "[".repeat(N_DEEP) + "]".repeat(N_DEEP) + "\n",
      editor: { code: "parse", message: /nested more than \d+ levels deep/ },
    },
    {
      name: `YAML flow mappings nested ${N_DEEP} levels`, file: "deep-flow-map.lwir.yaml",
      text: () => YAML_HEAD + "steps: []\nextra: " + "{a: ".repeat(N_DEEP) + "1" + "}".repeat(N_DEEP) + "\n",
      editor: { code: "parse", message: /nested more than \d+ levels deep/ },
    },
    {
      name: `YAML block sequences nested ${N_DEEP} levels`, file: "deep-block.lwir.yaml",
      text: () => YAML_HEAD + "steps: []\nextra:\n  " + "- ".repeat(N_DEEP) + "1\n",
      editor: { code: "parse", message: /nested more than \d+ levels deep/ },
    },
    {
      name: "YAML block mappings nested 3,000 levels", file: "deep-block-map.lwir.yaml", text: () => deepBlockMapping(3000),
      editor: { code: "parse", message: /nested more than \d+ levels deep/ },
    },
    {
      name: `an expression nested ${N_DEEP} levels`, file: "deep-expression.lwir.json",
      text: () => json({ ...baseWorkflow(), steps: [aiStep("only", "{{ " + "(".repeat(N_DEEP) + "input.topic" + ")".repeat(N_DEEP) + " }}")] }),
      editor: { code: "expression.invalid", path: "$.steps[0].with.prompt" },
    },
    {
      name: "a 20 MB JSON document", file: "big.lwir.json", text: () => bigJson(MB_20),
      editor: { code: "lwir.file_too_large", message: /lwir\.maxFileSize/ },
      cli: { code: "terminal.ambiguous", path: "$.steps" },
    },
    {
      name: "a 20 MB YAML document", file: "big.lwir.yaml", text: () => bigYaml(MB_20),
      editor: { code: "lwir.file_too_large", message: /lwir\.maxFileSize/ },
      cli: { code: "terminal.ambiguous", path: "$.steps" },
    },
    {
      name: "a 1 MB single-line string (JSON)", file: "long-line.lwir.json",
      text: () => JSON.stringify({ ...baseWorkflow(), steps: [aiStep("only", "Long ".repeat(209_716) + "{{ input.topic }}")] }),
      editor: "none",
    },
    {
      name: "a 1 MB single-line plain scalar (YAML)", file: "long-line.lwir.yaml",
      text: () => YAML_HEAD + "steps:\n  - id: only\n    uses: ai.generate\n    with: {model: model-a, prompt: " + "Long ".repeat(209_716) + "end}\n    output: {mode: text}\n",
      editor: "none",
    },
    {
      name: "a 1 MB single-line broken template", file: "long-template.lwir.json",
      text: () => JSON.stringify({ ...baseWorkflow(), steps: [aiStep("only", "{{ steps.".repeat(116_509))] }),
      editor: { code: "expression.invalid", path: "$.steps[0].with.prompt" },
    },
    {
      name: "lone surrogates (JSON escapes)", file: "lone-surrogates.lwir.json",
      text: () => json({ ...baseWorkflow(), steps: [aiStep("only", "a\ud800b {{ input.topic }} \udfff")] }),
      editor: { code: "lwir.non_hashable", message: /lone surrogate/i },
    },
    {
      name: "lone surrogates (raw in the text)", file: "lone-surrogates-raw.lwir.yaml",
      text: () => YAML_HEAD + "steps:\n  - id: only\n    uses: ai.generate\n    with: {model: model-a, prompt: \"a\ud800b\"}\n    output: {mode: text}\n    \udc00key: 1\n",
      editor: { code: "lwir.non_hashable", message: /lone surrogate/i },
    },
    {
      name: "NUL characters and a byte order mark", file: "nul-bom.lwir.json",
      text: () => "\ufeff" + json(baseWorkflow()).replace('"Summarise', '"Sum\u0000marise'),
      editor: { code: "parse" },
    },
    {
      name: "300,000 empty lines", file: "many-lines.lwir.yaml",
      text: () => "\n".repeat(300_000) + YAML_HEAD + "steps:\n  - {id: only, uses: ai.generate, with: {model: model-a, prompt: hi}, output: {mode: text}}\n",
      editor: "none",
    },
    {
      name: "5,000 steps in one parallel body", file: "wide-parallel.lwir.json", text: () => wideParallel(5000),
      editor: { code: "step.missing_dependency", path: "$.steps[0].steps[4999].with.prompt" },
    },
    {
      name: "a 5,000-step cycle", file: "cycle.lwir.json", text: () => cycle(5000),
      editor: { code: "lwir.invalid_cycle", path: "$.steps" },
    },
  ];
}
