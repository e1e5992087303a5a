// What a run-time check reports: a code of ours, where (a path into the document's value and, inside a
// string, offsets into the string's value), and the message. Positions are the service's business.
import type { ExprNode } from "../../lwir/expressions";
import type { PathSegment } from "../../lwir/types";

export interface RunNotice {
  code: string;
  /** The node the notice is about: a needs entry, a key's value, or the string holding an expression. */
  segments: PathSegment[];
  /** Inside a string: the offending text's offsets in the string's value. */
  start?: number;
  end?: number;
  /** The notice is about a key (a body's `steps:`, a refused key): its range is the key's. */
  onKey?: boolean;
  message: string;
  /** Other places the notice is about, each with a short sentence (related information). */
  related?: Array<{ segments: PathSegment[]; message: string }>;
  /** For a quick fix: the expression text at [start, end) and what could replace it. */
  replace?: { text: string; title: string; replacement: string };
}

/** A step id in a message. */
export function quoted(id: string): string {
  return JSON.stringify(id);
}

/**
 * The declared schema of a path read in the string at `segments`, when the schemas decide it (the
 * service's type checks know them); undefined otherwise.
 */
export type SchemaOf = (segments: PathSegment[], node: Extract<ExprNode, { kind: "path" }>) => unknown;
