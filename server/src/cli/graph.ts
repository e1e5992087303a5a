// `lwir graph FILE`: the workflow graph of one document (the model the editor's graph view draws) as
// Mermaid, DOT, SVG or the JSON contract. Exit 0 valid, 1 drawn with findings or not parsed, 2 unreadable.
import { readFileSync, writeFileSync } from "node:fs";
import { analyzeText } from "../service/analysis";
import { buildGraph } from "../graph/model";
import { toDot, toJson, toMermaid, toSvg } from "../graph/render";
import { graphFormatOf, type GraphOptions } from "./args";
import { checkBytes, isFailure } from "./check";
import { decodeUtf8 } from "../document/decode";
import { readDecoded } from "./check";
import { reasonOf } from "./files";
import { formatText } from "./format-text";
import { failureLine } from "./report";

export interface GraphRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Everything but the writing to the terminal, so tests can call it. FILE "-" draws `stdin` (its bytes, or
 * why they could not be read), shown as --stdin-filename or "<stdin>", its format from that name or the text.
 */
export function runGraph(options: GraphOptions, color = false, stdin?: Uint8Array | { reason: string }): GraphRun {
  const fromStdin = options.file === "-";
  const name = fromStdin ? options.stdinFilename ?? "<stdin>" : options.file;
  const formatName = fromStdin ? options.stdinFilename ?? "" : options.file;
  let bytes: Uint8Array;
  if (fromStdin) {
    if (stdin === undefined || !(stdin instanceof Uint8Array)) {
      return { code: 2, stdout: "", stderr: `lwir: ${failureLine({ path: name, reason: stdin?.reason ?? "standard input: nothing read", kind: "unreadable" })}\n` };
    }
    bytes = stdin;
  } else {
    try {
      bytes = readFileSync(options.file);
    } catch (error) {
      return { code: 2, stdout: "", stderr: `lwir: ${failureLine({ path: options.file, reason: reasonOf(error, options.file), kind: "unreadable" })}\n` };
    }
  }
  // A file the user names (or stdin): read whatever its bytes, as the runtime does.
  const { text, invalidUtf8, format } = readDecoded(decodeUtf8(bytes), formatName);
  const analysis = analyzeText(text, format, invalidUtf8);
  if (analysis.document.parseErrors.length > 0 || analysis.document.tooDeep) {
    // Nothing to draw: the parse errors as `lwir validate` prints them.
    const report = checkBytes(name, bytes, {}, formatName);
    const message = isFailure(report) ? `lwir: ${failureLine(report)}\n` : formatText([report], { color });
    return { code: isFailure(report) ? 2 : 1, stdout: "", stderr: message };
  }
  // The runtime's findings mark the steps; LWIR Tools' own notices are left to lwir validate.
  const graph = buildGraph(analysis.document.value, { findings: analysis.findings });
  const kind = graphFormatOf(options);
  const rendered = kind === "json" ? toJson(graph) : kind === "dot" ? toDot(graph) : kind === "svg" ? toSvg(graph) : toMermaid(graph);
  const problems = analysis.findings.length;
  const stderr = problems > 0
    ? `lwir: ${name}: ${problems} ${problems === 1 ? "finding" : "findings"}; drawn as far as it goes (lwir validate ${fromStdin ? "-" : options.file} lists them)\n`
    : "";
  const code = problems > 0 ? 1 : 0;
  if (options.output !== undefined) {
    try {
      writeFileSync(options.output, rendered);
    } catch (error) {
      return { code: 2, stdout: "", stderr: `lwir: cannot write ${options.output}: ${error instanceof Error ? error.message : String(error)}\n` };
    }
    return { code, stdout: "", stderr };
  }
  return { code, stdout: rendered, stderr };
}
