// The LWIR validator's data: findings as the reference reports them (findings catalog, section 1).

/** One step of a path into the parsed document: an object key or an array index. */
export type PathSegment = string | number;

export interface Finding {
  /** Always "error": the reference has no warnings (catalog 1.1). */
  severity: "error";
  /** One of the 61 codes of catalog section 3. */
  code: string;
  /** The path exactly as the reference writes it (catalog 1.2); not always valid JSONPath. */
  path: string;
  /** The same path as segments, so the document layer can map it without re-parsing the string. */
  segments: PathSegment[];
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  findings: Finding[];
}

export interface WorkflowVersion {
  /** "wfver_" + the first 16 hex digits of the SHA-256 of the canonical JSON. */
  id: string;
  /** "sha256:" + 64 lower-case hex digits. */
  hash: string;
}
