// The 61 finding codes of the LWIR validator with one-line descriptions, for SARIF rule metadata and
// hovers, and the codes of LWIR Tools' own diagnostics (OWN_RULES). Each code has a page in
// docs/rules/ (test/unit/rule-pages.test.ts keeps the pages and these lists in step).

export const PARSE_RULE = "parse";

export const RULES: ReadonlyArray<readonly [code: string, description: string]> = [
  ["lwir.non_hashable", "The document cannot be canonicalised (non-finite number, lone surrogate, cycle, or too deep)."],
  ["schema.invalid", "The document shape or a JSON Schema is invalid, or a schema uses a keyword outside the LWIR subset."],
  ["schema.unimplemented_field", "A field the alpha runtime would ignore is set (secrets, network, cache, escalated repair)."],
  ["terminal.ambiguous", "More than one top-level step could be the final step."],
  ["step.invalid", "A step list entry is not an object."],
  ["step.invalid_id", "A step id is missing, empty, not a string, or contains '.', '[', ']' or '@attempt_'."],
  ["step.duplicate_id", "Another step in the same list already has this id."],
  ["step.invalid_needs", "needs is not an array of non-empty strings."],
  ["step.invalid_type", "uses is not one of ai.generate, tool.call, code.run, parallel, decision."],
  ["step.sensitive_must_be_boolean", "sensitive must be true or false."],
  ["step.max_visits_out_of_range", "maxVisits must be an integer from 1 to 100."],
  ["step.missing_dependency", "A needs entry or an expression names a step that does not exist in scope."],
  ["step.undeclared_dependency", "An expression reads a step that is not listed in needs."],
  ["lwir.output_ambiguous_for_multi_visit", "steps.X.output is read from a step with maxVisits > 1; use lastOutput or allVisits."],
  ["lwir.decision_target_referenced_by_needs", "A step needs a decision target that has needs of its own, so it may never run."],
  ["lwir.invalid_cycle", "A cycle lacks a decision step, or one of its steps has maxVisits below 2."],
  ["output.invalid", "The step output is missing, not an object, or has an unknown mode."],
  ["output.invalid_metadata", "output.name or output.description is not a string."],
  ["output.missing_schema", "An object/array output, or a referenced json output, has no schema."],
  ["output.missing_values", "A choice output has no values array."],
  ["output.invalid_values", "A choice value is not a string."],
  ["output.invalid_for_step", "A parallel step's output mode must be array."],
  ["decision.output_not_allowed", "A decision step may not declare an output."],
  ["decision.default_required", "A decision step needs a non-empty with.default."],
  ["decision.case_invalid", "A decision case needs a string when and a non-empty to."],
  ["decision.target_not_in_scope", "A decision target is neither \"end\" nor a step of the same list."],
  ["expression.invalid", "A {{ }} template is malformed or uses something the expression language refuses."],
  ["model.missing", "An ai.generate step needs with.model."],
  ["model.disallowed", "The model is not listed in permissions.models."],
  ["tool.missing", "A tool.call step needs with.tool."],
  ["tool.disallowed", "The tool is not listed in permissions.tools."],
  ["code.invalid_config", "A code.run step's with must be an object."],
  ["code.missing_entrypoint", "A code.run step needs a non-empty with.entrypoint."],
  ["code.invalid_entrypoint", "The entrypoint must be a safe relative .ts path that is one of the files."],
  ["code.missing_files", "A code.run step needs a non-empty with.files object."],
  ["code.invalid_file_path", "A file name is not a safe relative path."],
  ["code.invalid_file", "A file entry must be an object with string content."],
  ["code.invalid_file_hash", "A file's sha256 is malformed or does not match its content."],
  ["code.missing_sandbox", "A code.run step needs with.sandbox."],
  ["code.invalid_sandbox", "The sandbox must deny network (and env/fs when given)."],
  ["fixer.invalid_config", "onFailure or onFailure.fixer is not an object."],
  ["fixer.unsupported_step", "onFailure.fixer is only supported on code.run steps."],
  ["fixer.model.missing", "The fixer needs a non-empty model."],
  ["fixer.model.disallowed", "The fixer's model is not listed in permissions.models."],
  ["fixer.max_attempts_invalid", "fixer.maxAttempts must be an integer of at least 1."],
  ["fixer.system_missing", "The fixer needs a non-empty system prompt."],
  ["repair.invalid_config", "onFailure.repair is not an object."],
  ["repair.unsupported_step", "onFailure.repair is only supported on ai.generate steps."],
  ["repair.invalid_mode", "repair.mode must be \"self\" (or the not yet implemented \"escalate\")."],
  ["repair.invalid_max_attempts", "repair.maxAttempts must be an integer of at least 1."],
  ["parallel.invalid", "A parallel step's with must be an object."],
  ["parallel.invalid_items", "with.items must be a single whole-string template."],
  ["parallel.invalid_item_key", "with.itemKey must be a single whole-string template that uses item."],
  ["parallel.invalid_cardinality", "with.cardinality must be { kind: \"matches_items\" }."],
  ["parallel.invalid_branches", "with.maxBranches must be an integer from 1 to 100."],
  ["parallel.invalid_concurrency", "with.maxConcurrency must be an integer from 1 to maxBranches."],
  ["parallel.invalid_failure_mode", "with.failureMode must be fail_fast or all_settled."],
  ["parallel.invalid_fan_in", "fanIn or the parallel output schema does not describe the fan-in envelope."],
  ["parallel.fan_in_output_step_invalid", "fanIn.outputStep must name a non-decision step of the body."],
  ["parallel.missing_steps", "A parallel step needs a non-empty steps list."],
  ["parallel.nested_unsupported", "A parallel step cannot be nested inside another parallel body."],
];

/** Severity of a diagnostic of our own (findings of the runtime are always errors). */
export type OwnRuleSeverity = "error" | "warning" | "info" | "hint";

/**
 * Codes of LWIR Tools' own diagnostics: never findings of the runtime, never part of a document's
 * validity. The errors say the tool could not check the document; the warnings point at text the
 * runtime accepts but that probably does not do what its author meant.
 */
export interface OwnRule {
  readonly code: string;
  /** The level it is reported at unless a user sets another (`lwir.lint.rules`, `--rule`). */
  readonly severity: OwnRuleSeverity;
  readonly description: string;
  /** Users may set its level or turn it off; the tool's own failures (parse, internal_error) cannot be. */
  readonly configurable: boolean;
}

export const OWN_RULES: readonly OwnRule[] = [
  { code: PARSE_RULE, severity: "error", description: "The file is not readable JSON or YAML text, so nothing in it was checked.", configurable: false },
  { code: "lwir.invalid_utf8", severity: "warning", description: "The file holds bytes that are not UTF-8: the runtime reads each such sequence as U+FFFD.", configurable: true },
  { code: "lwir.nul_byte", severity: "warning", description: "The file holds NUL characters (byte 0x00): the runtime reads them, other tools take the file for binary.", configurable: true },
  { code: "lwir.parse_warning", severity: "warning", description: "The YAML parser warns about text the runtime still accepts, such as an unknown tag.", configurable: true },
  { code: "lwir.yaml_unquoted_template", severity: "warning", description: "An unquoted {{ }} in YAML is read as a mapping, not as a template string.", configurable: true },
  { code: "lwir.inherited_function_name", severity: "warning", description: "An expression calls a name every JavaScript object has (toString, valueOf, …): accepted, but it fails the step at run time.", configurable: true },
  { code: "lwir.unknown_key", severity: "warning", description: "A key close to one the runtime reads (need, permission, whenn) where the format defines the keys: the runtime ignores it.", configurable: true },
  { code: "lwir.unknown_property", severity: "warning", description: "An expression reads a property the declared schema does not have (input, a step output, item), at any depth.", configurable: true },
  { code: "lwir.property_of_scalar_output", severity: "warning", description: "An expression reads a property of a step output in text or choice mode, which is a plain string.", configurable: true },
  { code: "lwir.impossible_comparison", severity: "warning", description: "A comparison with a value the declared choice values, enum or const do not contain: never true (==) or always true (!=).", configurable: true },
  { code: "lwir.items_not_array", severity: "warning", description: "A parallel step's items resolve to a declared schema that is not an array.", configurable: true },
  { code: "lwir.needs_decision_step", severity: "warning", description: "A step needs a decision step, which never counts as done for needs: the step can never run.", configurable: true },
  { code: "lwir.needs_unchosen_target", severity: "warning", description: "A step needs a decision's target that the decision may not choose: then the step never runs.", configurable: true },
  { code: "lwir.body_terminal_ambiguous", severity: "warning", description: "A parallel body has more than one final step: every branch fails when the workflow runs.", configurable: true },
  { code: "lwir.terminal_output_type", severity: "warning", description: "The final step's output type differs from the type output.schema declares: every run fails before its first step.", configurable: true },
  { code: "lwir.loop_read_before_run", severity: "warning", description: "A loop step reads, outside coalesce, a step that runs after it: the read fails on the loop's first pass.", configurable: true },
  { code: "lwir.body_reads_multi_visit_step", severity: "warning", description: "A parallel body reads a top-level step with maxVisits above 1, which branches never see.", configurable: true },
  { code: "lwir.item_key_not_string", severity: "warning", description: "A parallel step's itemKey can never be a string (a number, a comparison): the step fails on its first item.", configurable: true },
  { code: "lwir.function_argument_type", severity: "warning", description: "len() or date() of a value whose declared type it refuses: the call fails whenever it runs.", configurable: true },
  { code: "lwir.unsafe_input_key", severity: "warning", description: "A step's input has the key __proto__, constructor or prototype, which the runtime refuses: the step fails before it starts.", configurable: true },
  { code: "lwir.when_always_true", severity: "warning", description: "A decision case whose when reads a value that always counts as true (text such as \"no\", an object): the later cases and the default are never chosen.", configurable: true },
  { code: "lwir.scenario_invalid", severity: "warning", description: "A scenarios file (NAME.lwir.test.yaml) does not have the shape schemas/lwir-test.schema.json describes: lwir test reports it.", configurable: true },
  { code: "lwir.scenario_no_workflow", severity: "warning", description: "A scenarios file has no workflow beside it (NAME.lwir.yaml, .yml or .json, or the file its workflow key names).", configurable: true },
  { code: "lwir.scenario_unknown_step", severity: "warning", description: "A scenarios file names a step the workflow does not have (outputs, expect.steps, expect.chosen).", configurable: true },
  { code: "lwir.scenario_unknown_target", severity: "warning", description: "A scenario expects a decision to choose a target that is not one of the decision's targets.", configurable: true },
  { code: "lwir.scenario_output_mismatch", severity: "warning", description: "A sample output in a scenario does not satisfy the step's declared output (text, choice values, schema): the dry run fails at that step.", configurable: true },
  { code: "lwir.scenario_input_mismatch", severity: "warning", description: "A scenario's input does not satisfy the workflow's input.schema: the dry run fails before its first step.", configurable: true },
  { code: "lwir.empty_document", severity: "info", description: "The document is empty: the editor offers a new workflow to start from.", configurable: true },
  { code: "lwir.file_too_large", severity: "warning", description: "The document is larger than lwir.maxFileSize, so the editor does not analyse it.", configurable: true },
  { code: "lwir.internal_error", severity: "error", description: "LWIR Tools failed while analysing the document (a bug in the tool, not in the document).", configurable: false },
];
