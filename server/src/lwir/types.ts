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
  /** What the validator knew when it reported the finding, for editor features (absent for most codes). */
  details?: FindingDetails;
}

/**
 * Facts behind a finding, so diagnostics and quick fixes never re-derive the validator's step lists,
 * flow graph or cycles. Plain JSON; steps are given by their path segments, e.g. ["steps", 2].
 * `kind` tells the shapes apart; which codes carry which kind is noted on each.
 */
export type FindingDetails =
  | ReferenceDetails
  | NeedsEntryDetails
  | CycleDetails
  | DuplicateIdDetails
  | TerminalsDetails
  | GuardedTargetDetails
  | NameDetails
  | DecisionTargetDetails
  | SchemaDetails;

/** `schema.invalid` in a JSON Schema: the node inside it that is wrong (the finding's path is the schema's). */
export interface SchemaDetails {
  kind: "schema";
  at: PathSegment[];
}

/**
 * A `steps.X…` reference inside a template string: `step.missing_dependency` (string form),
 * `step.undeclared_dependency`, `lwir.output_ambiguous_for_multi_visit`, and `output.missing_schema`
 * (reference form, whose path is the read step's `output.schema`, not the string).
 */
export interface ReferenceDetails {
  kind: "reference";
  /** The referenced id. */
  stepId: string;
  /** The first property after the id (`output`, `lastOutput`, …), when there is one. */
  property?: string;
  /** The referenced step, when it exists; `external` when it is a step of an enclosing list (a parallel body reading its parent's needs). */
  target?: PathSegment[];
  external?: boolean;
  /** The referencing step. */
  from: PathSegment[];
  /** The string holding the reference, and the reference's offsets in its decoded value (`steps.X` up to the end of the property). */
  stringPath: PathSegment[];
  start: number;
  end: number;
}

/** `step.missing_dependency` on a needs entry. */
export interface NeedsEntryDetails {
  kind: "needsEntry";
  stepId: string;
  /** The entry's index in the array as written; the path counts valid entries only (catalog 9.3). */
  needsIndex: number;
}

/** `lwir.invalid_cycle`: the members of the offending component, in the validator's order. */
export interface CycleDetails {
  kind: "cycle";
  cycle: PathSegment[][];
  /** "maxVisits": some member has maxVisits below 2 (listed in `below`); "decision": no decision step breaks the cycle. */
  reason: "maxVisits" | "decision";
  below?: PathSegment[][];
}

/** `step.duplicate_id`: the first step with the id, which wins. */
export interface DuplicateIdDetails {
  kind: "duplicateId";
  first: PathSegment[];
}

/** `terminal.ambiguous`: every terminal step (needed by no step and targeted by no decision). */
export interface TerminalsDetails {
  kind: "terminals";
  terminals: PathSegment[][];
}

/** `lwir.decision_target_referenced_by_needs`: the needed decision target that has needs of its own. */
export interface GuardedTargetDetails {
  kind: "guardedTarget";
  stepId: string;
  target: PathSegment[];
}

/** `model.disallowed`, `tool.disallowed`, `fixer.model.disallowed`: the name missing from the allow-list. */
export interface NameDetails {
  kind: "name";
  name: string;
}

/** `decision.target_not_in_scope`: the unknown target (one finding per distinct target, all at S.with). */
export interface DecisionTargetDetails {
  kind: "decisionTarget";
  target: string;
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
