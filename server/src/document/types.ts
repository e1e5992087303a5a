// The document layer's data: text → parsed value + parse problems + a map from paths to source ranges.
// Runs in Node and in a browser web worker: no Node APIs, no LSP libraries here.
import type { PathSegment } from "../lwir/types";

export type Format = "json" | "yaml";

/** LSP position: 0-based line, character counted in UTF-16 code units. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface ParseProblem {
  message: string;
  range: Range;
  /** A stable code for the problem, e.g. "DUPLICATE_KEY" (yaml) or "CommaExpected" (JSON). */
  code?: string;
  /** A YAML value the problem is about, written unquoted (or badly quoted): what the quick fixes rewrite. */
  value?: ParseValue;
}

/** A value in the text (offsets), the string it was meant to be, and the column of its key. */
export interface ParseValue {
  start: number;
  end: number;
  text: string;
  indent: number;
}

/** Text offsets; the key is absent for array elements and the root. */
export interface NodeLocation {
  keyStart?: number;
  keyEnd?: number;
  valueStart: number;
  valueEnd: number;
}

/** What sits at a cursor offset (for completion and hover). */
export interface PathAt {
  /** The path of the member under the cursor, or of the container when `between` is set. */
  segments: PathSegment[];
  /** The cursor is on the member's key; with `between`, the container is an object (a key goes here). */
  inKey: boolean;
  /** The cursor is inside the container named by `segments` but on none of its members. */
  between?: boolean;
}

export interface LwirDocument {
  readonly format: Format;
  readonly text: string;
  /** The parsed value; undefined when the text does not parse or is nested too deeply. */
  readonly value: unknown;
  readonly parseErrors: ParseProblem[];
  /** Problems the runtime accepts (YAML warnings such as an unresolved tag); never part of validity. */
  readonly parseWarnings: ParseProblem[];
  /** Set for JSON nested deeper than MAX_JSON_DEPTH (catalog 11): value is undefined, parseErrors empty. */
  readonly tooDeep?: { depth: number; limit: number };
  /** Offsets where each line starts (line breaks: \n, \r\n, \r, as LSP counts them). */
  readonly lineStarts: readonly number[];
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
  rangeAt(start: number, end: number): Range;
  /** Where the node at this path is written (for a YAML alias: where the alias is used), or undefined when absent. */
  locate(segments: readonly PathSegment[]): NodeLocation | undefined;
  /** The range a finding at this path is shown at (see findingRange in text.ts). */
  findingRange(segments: readonly PathSegment[]): Range;
  /** The path at a cursor offset, best effort (also on documents with parse errors); undefined outside the root value. */
  pathAt(offset: number): PathAt | undefined;
}
