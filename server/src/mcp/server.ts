// `lwir mcp`: a Model Context Protocol server over stdio (the official TypeScript SDK), so coding agents get
// the checks, fixes, rule pages, graph, schema, completion and dry runs a person gets in the editor and the
// CLI. A thin adapter, as server/src/lsp/ is for the language server: the tools' answers are made in
// tools.ts from the CLI's and the service's own functions. It reads the files it is asked about (and writes one only for `fix` with
// `write: true`); it never touches the network and never runs anything.
import { z } from "zod";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { version } from "../../../package.json";
import { OWN_RULES, PARSE_RULE, RULES } from "../lwir/codes";
import { authoringReference, rulePage } from "../cli/rulePages";
import { completeTool, dryRunTool, explainTool, fixTool, graphTool, schemaTool, testTool, ToolError, validateTool } from "./tools";

// zod compiles parsers with `new Function` unless told not to; nothing here ever builds code at run time.
z.config({ jitless: true });

/** Messages above this size cannot be read at all (the SDK's default is 10 MiB): big enough that a huge document gets a clear tool error. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const documentShape = {
  path: z.string().min(1).optional().describe("A workflow file to read (relative to the server's working folder, or absolute). Give path or text."),
  text: z.string().optional().describe("The workflow itself (its text). Give path or text."),
  format: z.enum(["json", "yaml"]).optional().describe("The format of text (or of a file whose name does not say it); without it: { or [ first is JSON, else YAML."),
};
const cursorShape = { cursor: z.string().optional().describe("The nextCursor of the previous answer, for the next page.") };

const edit = z.object({ line: z.number().int(), column: z.number().int(), endLine: z.number().int(), endColumn: z.number().int(), newText: z.string() });
const finding = z.object({
  code: z.string(),
  severity: z.enum(["error", "warning", "info", "hint"]),
  origin: z.enum(["runtime", "lwir"]).describe("runtime: the runtime refuses the document; lwir: a check of LWIR Tools (a warning the runtime lets through)."),
  message: z.string(),
  path: z.string(),
  line: z.number().int(), column: z.number().int(), endLine: z.number().int(), endColumn: z.number().int(),
  fixes: z.array(z.object({ title: z.string(), auto: z.boolean(), edits: z.array(edit) })).optional(),
});
const version_ = z.object({ id: z.string(), hash: z.string() }).nullable();

const runError = z.object({
  step: z.string().optional().describe("The step path where the run stops."),
  at: z.string().optional().describe("Where in the step: input, with.prompt, with.cases[0].when, with.items, output…"),
  expression: z.string().optional(),
  message: z.string(),
  runtime: z.string().optional().describe("The runtime's own words for the error."),
  cause: z.string().optional(),
  findings: z.array(z.string()).optional(),
});
const anyValue = z.unknown().describe("A JSON value (a long one as the start of its JSON, a string ending in …; see truncated).");

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const INSTRUCTIONS = `LWIR Tools: the checks of the little-workflow runtime's validator (and LWIR Tools' own warnings) for LWIR workflows in JSON or YAML.
Before writing a workflow, read the resource lwir://reference. After writing one, call validate; call fix to apply every fix that needs no choice, then validate again.
To see what a valid workflow will do (the prompts each model receives, the decisions, where a run fails), call dry_run; test runs the scenarios of its NAME.lwir.test.yaml.
Lines and columns are 1-based; columns count UTF-16 code units. A finding with origin "runtime" makes the runtime refuse the document.`;

/** The server with its tools and resources, not yet connected (the tests connect it to an in-memory pair too). */
export function createMcpServer(): McpServer {
  const server = new McpServer({ name: "lwir", title: "LWIR Tools", version }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });

  server.registerTool("validate", {
    title: "Validate an LWIR workflow",
    description: "Checks one LWIR workflow exactly as the runtime's validator does (lwir validate): valid or not, its WorkflowVersion when valid, and every problem (code, message, path, line and column, severity, origin runtime or lwir) with the fixes the editor offers as exact text edits (auto: fix applies it unasked). Findings come 100 to a page.",
    inputSchema: { ...documentShape, ...cursorShape },
    outputSchema: {
      format: z.enum(["json", "yaml"]),
      valid: z.boolean().describe("The runtime would accept the document."),
      workflowVersion: version_,
      counts: z.object({ errors: z.number().int(), warnings: z.number().int(), infos: z.number().int(), hints: z.number().int() }),
      total: z.number().int(),
      findings: z.array(finding),
      nextCursor: z.string().optional(),
    },
    annotations: { title: "Validate an LWIR workflow", ...READ_ONLY },
  }, (args) => answer(() => validateTool(args)));

  server.registerTool("fix", {
    title: "Fix an LWIR workflow",
    description: "Applies every fix that needs no choice, to a fixpoint, exactly as lwir validate --fix (missing needs entries, quotes around {{ }} in YAML, .output -> .lastOutput, a misspelt name with one close match, a misspelt key): the fixed text, the edits made (line ranges of the text given), and what remains. With path and write: true the file is written atomically. fixType lint or all adds the type checks' did-you-mean fixes.",
    inputSchema: {
      ...documentShape,
      write: z.boolean().optional().describe("With path: write the fixed text back to the file (atomically, formatting and comments kept)."),
      fixType: z.enum(["problem", "lint", "all"]).optional().describe("problem (default): the runtime's findings; lint: LWIR Tools' own warnings; all: both."),
      ...cursorShape,
    },
    outputSchema: {
      format: z.enum(["json", "yaml"]),
      text: z.string().describe("The text after the fixes (a page of it when nextCursor is set)."),
      nextCursor: z.string().optional(),
      fixed: z.number().int(),
      applied: z.array(z.string()),
      edits: z.array(edit),
      written: z.boolean(),
      valid: z.boolean(),
      workflowVersion: version_,
      remaining: z.array(finding),
      remainingTotal: z.number().int(),
    },
    annotations: { title: "Fix an LWIR workflow", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, (args) => answer(() => fixTool(args)));

  server.registerTool("explain", {
    title: "Explain a finding code",
    description: "The rule page of a finding code (step.missing_dependency, lwir.yaml_unquoted_template, …): what it means, why, how to fix it, examples in JSON and YAML.",
    inputSchema: { code: z.string().min(1).describe("A finding code, as validate reports it.") },
    outputSchema: { code: z.string(), origin: z.enum(["runtime", "lwir"]), summary: z.string(), page: z.string() },
    annotations: { title: "Explain a finding code", ...READ_ONLY },
  }, (args) => answer(() => explainTool(args)));

  server.registerTool("graph", {
    title: "Draw an LWIR workflow",
    description: "The workflow's graph (lwir graph): a Mermaid flowchart, or the graph model as JSON (steps, needs and decision edges, parallel bodies, steps with findings marked). Long answers come in pages.",
    inputSchema: { ...documentShape, output: z.enum(["mermaid", "json"]).optional().describe("mermaid (default) or json."), ...cursorShape },
    outputSchema: { output: z.enum(["mermaid", "json"]), text: z.string(), nextCursor: z.string().optional(), valid: z.boolean(), findings: z.number().int() },
    annotations: { title: "Draw an LWIR workflow", ...READ_ONLY },
  }, (args) => answer(() => graphTool(args)));

  server.registerTool("schema", {
    title: "The JSON Schema of LWIR",
    description: "The JSON Schema of LWIR documents (lwir schema), for tools that generate or check the shape. The validate tool checks far more than the schema can say.",
    inputSchema: { ...cursorShape },
    outputSchema: { text: z.string(), nextCursor: z.string().optional() },
    annotations: { title: "The JSON Schema of LWIR", ...READ_ONLY },
  }, (args) => answer(() => schemaTool(args)));

  server.registerTool("complete", {
    title: "What may stand here",
    description: "What may be written at a position of a workflow (the editor's completion): inside {{ }} the steps this step may read, roots (input, steps, item…), functions and output properties; elsewhere needs entries, decision targets, uses, modes, models and tools.",
    inputSchema: {
      ...documentShape,
      line: z.number().int().min(1).describe("1-based line."),
      column: z.number().int().min(1).describe("1-based column (UTF-16 code units): where the cursor stands, e.g. right after '{{ steps.'."),
    },
    outputSchema: {
      items: z.array(z.object({ label: z.string(), kind: z.string().optional(), detail: z.string().optional(), insertText: z.string().optional() })),
      total: z.number().int(),
    },
    annotations: { title: "What may stand here", ...READ_ONLY },
  }, (args) => answer(() => completeTool(args)));

  server.registerTool("dry_run", {
    title: "Dry-run an LWIR workflow",
    description: "What the runtime would do with a valid workflow (lwir run --dry), with no model, tool or code run: the steps in the order they run (path, visit, a decision's choice and the case that chose it, the system prompt and user message each ai.generate step sends, whether its output is a given or generated sample), then the workflow's output or the error where the run stops (step, expression, message). input gives the workflow input; scenario takes the input and sample outputs of a scenario of the scenarios file beside path; explore: true runs every combination of decision outcomes instead. Long traces come in pages.",
    inputSchema: {
      ...documentShape,
      input: z.unknown().optional().describe("The workflow input (any JSON value); without it, the scenario's, else one generated from input.schema."),
      scenario: z.string().min(1).optional().describe("A scenario's name in the scenarios file beside path (NAME.lwir.test.yaml): its input and sample outputs."),
      explore: z.boolean().optional().describe("true: dry-run every combination of decision outcomes (at most 1,000 paths) and list how each ends."),
      ...cursorShape,
    },
    outputSchema: {
      mode: z.enum(["run", "explore"]),
      status: z.enum(["completed", "failed"]).describe("run: how the run ended; explore: failed when some path fails."),
      scenario: z.string().optional(),
      input: anyValue,
      inputFrom: z.string(),
      steps: z.array(z.object({
        path: z.string(),
        uses: z.string(),
        visit: z.number().int().optional(),
        sample: z.enum(["given", "generated", "computed"]).optional().describe("The output: the scenario's sample, a generated one, or computed by the step (decision, parallel)."),
        chosen: z.string().optional(),
        case: z.number().int().optional().describe("The index of the case whose when was truthy."),
        byDefault: z.boolean().optional(),
        branches: z.array(z.string()).optional(),
        system: z.string().optional().describe("The system prompt the model receives (\"\": none)."),
        user: z.string().optional().describe("The user message the model receives."),
        truncated: z.boolean().optional().describe("system or user was shortened (lwir run --dry --format json has them whole)."),
        notes: z.array(z.string()).optional(),
        error: runError.optional(),
      })).optional(),
      total: z.number().int().optional().describe("run: the steps run; explore: the paths explored."),
      output: anyValue.optional(),
      error: runError.optional(),
      notes: z.array(z.string()).optional(),
      paths: z.array(z.object({
        choices: z.array(z.object({ decision: z.string(), value: z.string() })),
        status: z.enum(["completed", "failed"]),
        steps: z.number().int(),
        error: runError.optional(),
      })).optional(),
      failing: z.number().int().optional(),
      unreached: z.array(z.string()).optional(),
      limitReached: z.boolean().optional(),
      truncated: z.array(z.string()).optional().describe("Values given as the start of their JSON: input, output."),
      nextCursor: z.string().optional(),
    },
    annotations: { title: "Dry-run an LWIR workflow", ...READ_ONLY },
  }, (args) => answer(() => dryRunTool(args)));

  server.registerTool("test", {
    title: "Run an LWIR workflow's scenarios",
    description: "Runs the scenarios of scenarios files (NAME.lwir.test.yaml beside NAME.lwir.yaml: inputs, sample outputs, expectations) as dry runs, as lwir test does: each scenario passed or failed, and each failing expectation with what was expected, what happened and its line in the scenarios file. path: a scenarios file, a workflow (its scenarios file) or a folder (searched).",
    inputSchema: {
      path: z.string().min(1).describe("A scenarios file, a workflow file with one beside it, or a folder (relative to the server's working folder, or absolute)."),
      scenario: z.string().min(1).optional().describe("Only the scenarios of this name."),
      ...cursorShape,
    },
    outputSchema: {
      passed: z.number().int(),
      failed: z.number().int(),
      errors: z.number().int().describe("Scenarios files that could not run, and problems in them."),
      files: z.array(z.object({
        file: z.string(),
        workflow: z.string().nullable(),
        error: z.string().optional(),
        problems: z.array(z.object({ message: z.string(), line: z.number().int(), column: z.number().int() })),
        scenarios: z.array(z.object({
          name: z.string(),
          line: z.number().int(),
          status: z.enum(["passed", "failed"]),
          run: z.enum(["completed", "failed"]),
          steps: z.number().int(),
          error: runError.optional(),
          failures: z.array(z.object({
            what: z.string().describe("expect.steps, expect.chosen.ID, expect.output, expect.error, or run (the run failed unexpectedly)."),
            message: z.string(),
            line: z.number().int(),
            column: z.number().int(),
            expected: anyValue.optional(),
            actual: anyValue.optional(),
            truncated: z.boolean().optional(),
          })),
        })),
      })),
      notices: z.array(z.string()).optional(),
      nextCursor: z.string().optional(),
    },
    annotations: { title: "Run an LWIR workflow's scenarios", ...READ_ONLY },
  }, (args) => answer(() => testTool(args)));

  server.registerResource("reference", "lwir://reference", {
    title: "LWIR authoring reference",
    description: "LWIR on one page: the document, steps, needs, expressions, outputs, loops, parallel steps and permissions, and the mistakes the runtime refuses. Read it before writing a workflow.",
    mimeType: "text/markdown",
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: authoringReference() }] }));

  const codes = [PARSE_RULE, ...RULES.map(([code]) => code), ...OWN_RULES.map((r) => r.code)].filter((code) => rulePage(code) !== undefined);
  const summaries = new Map<string, string>([...RULES.map(([c, d]) => [c, d] as const), ...OWN_RULES.map((r) => [r.code, r.description] as const)]);
  server.registerResource("rule", new ResourceTemplate("lwir://rules/{code}", {
    list: () => ({ resources: codes.map((code) => ({ uri: `lwir://rules/${code}`, name: code, mimeType: "text/markdown", ...(summaries.has(code) ? { description: summaries.get(code) } : {}) })) }),
    complete: { code: (value) => codes.filter((c) => c.startsWith(value)) },
  }), {
    title: "Rule page",
    description: "The page of one finding code: what it means, why, how to fix it, examples.",
    mimeType: "text/markdown",
  }, (uri, variables) => {
    const code = String(variables.code);
    const page = rulePage(code);
    if (page === undefined) throw new Error(`No rule has the code "${code}".`);
    return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: page }] };
  });
  return server;
}

/**
 * A tool's answer: the structured content, and the same as compact JSON text for clients that read only
 * text, one finding to a line. A ToolError (bad input) or any other failure is a tool error with its message.
 */
function answer<T extends object>(make: () => T): CallToolResult {
  try {
    const value = make();
    return { content: [{ type: "text", text: compactJson(value) }], structuredContent: value as Record<string, unknown> };
  } catch (error) {
    const message = error instanceof ToolError ? error.message : `LWIR Tools failed on this request (a bug; please report it): ${error instanceof Error ? error.message : String(error)}`;
    return { content: [{ type: "text", text: message }], isError: true };
  }
}

/** JSON with each element of a top-level array (a finding, an edit, an item) on a line of its own. */
export function compactJson(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return JSON.stringify(value);
  const parts = Object.entries(value).map(([key, v]) =>
    Array.isArray(v) && v.length > 0 ? `${JSON.stringify(key)}:[\n${v.map((x) => JSON.stringify(x)).join(",\n")}\n]` : `${JSON.stringify(key)}:${JSON.stringify(v)}`);
  return `{${parts.join(",\n")}}`;
}

/** Serves the tools on standard input and output until the client closes them; resolves with the exit status. */
export async function runMcpServer(): Promise<number> {
  const server = createMcpServer();
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<number>((done) => {
    server.server.onclose = () => done(0);
    process.stdin.once("end", () => done(0));
  });
  await server.connect(transport);
  return closed;
}
