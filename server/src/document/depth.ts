// Nesting limits (findings catalog 11, decision on 9.2): measured before any recursive code sees the input.
//
// JSON: an iterative bracket count over the text. Up to MAX_JSON_DEPTH levels parse as usual; deeper text is
// never handed to jsonc-parser (recursive; it throws a RangeError near 10,000 levels).
//
// YAML: the `yaml` package's lexer and CST parser are iterative (the parser keeps an explicit stack), but its
// composer recurses once per nesting level: it overflows the call stack at about 800–950 levels (flow, block
// and compact `- - -` nesting alike, measured with Node 20's default stack) and reports RESOURCE_EXHAUSTION,
// except when the overflow lands inside V8's regexp compiler, which aborts the whole process
// ("RegExpCompiler Allocation failed") — seen with `&a [` and `[\n` nesting at 2,000 levels. So we drive the
// lexer and CST parser ourselves and stop as soon as the parser's stack passes MAX_YAML_DEPTH: half the
// smallest depth measured to overflow. At 500 levels the composer already used about 60% of the default
// stack (flow nesting); at 400 a caller can still hold about half of it (a deep call chain, a smaller worker stack).
import { Lexer, Parser } from "yaml";
import type { CST } from "yaml";

export const MAX_JSON_DEPTH = 5000;
export const MAX_YAML_DEPTH = 400;

export interface JsonDepth {
  /** Deepest bracket nesting seen. */
  depth: number;
  /** Offset of the first bracket that went deeper than the limit, or -1. */
  overAt: number;
}

/**
 * Nesting depth of JSON text, counting brackets outside strings and comments the way jsonc-parser's scanner
 * reads them (a string also ends at a line break; line and block comments are skipped). Linear time.
 */
export function scanJsonDepth(text: string, limit: number = MAX_JSON_DEPTH): JsonDepth {
  const n = text.length;
  let depth = 0;
  let max = 0;
  let overAt = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x0a || d === 0x0d) break; // unterminated: the scanner ends the string here
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) {
        max = depth;
        if (depth > limit && overAt < 0) overAt = i;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) depth--;
    } else if (c === 0x2f /* / */) {
      const d = text.charCodeAt(i + 1);
      if (d === 0x2f) {
        while (i + 1 < n && text.charCodeAt(i + 1) !== 0x0a && text.charCodeAt(i + 1) !== 0x0d) i++;
      } else if (d === 0x2a /* * */) {
        const close = text.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 1;
      }
    }
  }
  return { depth: max, overAt };
}

/**
 * Nesting depth of text JSON.parse accepted (no comments, well-formed strings): like scanJsonDepth, but
 * jumps over each string with indexOf instead of reading it character by character.
 */
export function scanValidJsonDepth(text: string): number {
  const n = text.length;
  let depth = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let q = text.indexOf('"', i + 1);
      for (;;) {
        if (q < 0) return max;
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((q - 1 - b) % 2 === 0) break;
        q = text.indexOf('"', q + 1);
      }
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export interface YamlTooDeep {
  /** Nesting when the parser was stopped: its stack height below the document. */
  depth: number;
  limit: number;
  /** Where the node that went past the limit starts. */
  offset: number;
}

/**
 * Lexes and parses YAML into CST tokens, handing each top-level token (document, directive, error…) to
 * `sink` in order; `sink` returns true to stop early. Stops before the CST nests deeper than `limit` and
 * returns where; the tokens handed out so far are then incomplete and must be discarded. Linear time.
 */
export function parseYamlCst(
  text: string,
  sink: (token: CST.Token) => boolean | void,
  limit: number = MAX_YAML_DEPTH,
): YamlTooDeep | undefined {
  const parser = new Parser();
  // The text comes without the BOM the runtime's `yaml` drops (document/decode.ts, documentText): a BOM
  // still at its start is the file's second one, which the runtime reads as content (`\ufeffapiVersion`).
  // So lex it behind the BOM that was dropped, and leave that lexeme out: offsets stay the text's own.
  const contentBom = text.charCodeAt(0) === 0xfeff;
  let skip = contentBom;
  for (const lexeme of new Lexer().lex(contentBom ? "\ufeff" + text : text)) {
    if (skip) {
      skip = false;
      continue;
    }
    for (const token of parser.next(lexeme)) if (sink(token)) return undefined;
    // the stack holds the document, then each open collection (and scalar): the CST's nesting so far
    const depth = parser.stack.length - 1;
    if (depth > limit) return { depth, limit, offset: parser.stack[depth].offset };
  }
  for (const token of parser.end()) if (sink(token)) return undefined;
  return undefined;
}
