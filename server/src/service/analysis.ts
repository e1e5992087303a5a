// One analysis per document version: parse with positions, validate, map findings to ranges.
// Every feature (diagnostics, completion, code actions, the CLI) reads this same result.
import { parseDocument } from "../document/document";
import type { InvalidUtf8 } from "../document/decode";
import type { Format, LwirDocument, Range } from "../document/types";
import { validateLwir } from "../lwir/validate";
import { workflowVersionOf } from "../lwir/canonical";
import type { Finding, WorkflowVersion } from "../lwir/types";

export interface RangedFinding extends Finding {
  range: Range;
}

export interface Analysis {
  document: LwirDocument;
  /** Validator findings with ranges; empty when the text does not parse. */
  findings: RangedFinding[];
  /** The document parses and has no findings. */
  valid: boolean;
  /** The WorkflowVersion of a valid document, else null. */
  workflowVersion: WorkflowVersion | null;
  /** Bytes of the file that were not UTF-8 (document/decode.ts), when a reader of bytes made the text. */
  invalidUtf8?: readonly InvalidUtf8[];
}

export function analyzeDocument(document: LwirDocument): Analysis {
  if (document.tooDeep) {
    const { depth, limit } = document.tooDeep;
    const finding: Finding = {
      severity: "error", code: "lwir.non_hashable", path: "$", segments: [],
      message: `The document is nested ${depth} levels deep; LWIR tools check documents nested at most ${limit} levels deep.`,
    };
    return { document, findings: [{ ...finding, range: document.findingRange([]) }], valid: false, workflowVersion: null };
  }
  if (document.parseErrors.length > 0) return { document, findings: [], valid: false, workflowVersion: null };
  // the document layer's values come from JSON.parse, yaml's toJS or its own reader: plain data properties only
  const result = validateLwir(document.value, { plainData: true });
  const findings = result.findings.map((f) => ({ ...f, range: document.findingRange(f.segments) }));
  const valid = findings.length === 0;
  return withLazyVersion({ document, findings, valid }, valid);
}

/**
 * The WorkflowVersion (canonical JSON + SHA-256 of the whole document, about a third of an analysis) is
 * computed when first read: diagnostics never read it, so typing does not pay for it.
 */
function withLazyVersion(base: Omit<Analysis, "workflowVersion">, valid: boolean): Analysis {
  let version: WorkflowVersion | null | undefined = valid ? undefined : null;
  const value = base.document.value;
  return Object.defineProperty(base, "workflowVersion", {
    enumerable: true,
    configurable: true,
    get: () => (version === undefined ? (version = workflowVersionOf(value)) : version),
    set: (v: WorkflowVersion | null) => { version = v; },
  }) as Analysis;
}

/** `invalidUtf8`: where the reader replaced bytes by U+FFFD (decodeUtf8), for the lwir.invalid_utf8 warnings. */
export function analyzeText(text: string, format: Format, invalidUtf8?: readonly InvalidUtf8[]): Analysis {
  const analysis = analyzeDocument(parseDocument(text, format));
  if (invalidUtf8 && invalidUtf8.length > 0) analysis.invalidUtf8 = invalidUtf8;
  return analysis;
}
