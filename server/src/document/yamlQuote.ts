// When a string written into a YAML document must be quoted, and how. One rule for every writer:
// snippets and completion, quick-fix edits, the quoted form a diagnostic suggests, and rename.
//
// A scalar we write must read back as the same string in block and flow context, by a YAML 1.2 reader
// (ours, the runtime's) and by a YAML 1.1 one (many tools still are), where `yes`, `on`, `y`, `0777`,
// `1_000`, `0b10` and dates are not strings. The plain rule is conservative on purpose: a quoted
// scalar is always right, a wrongly plain one silently changes the document's value.

/** Words YAML 1.1 or 1.2 reads as booleans or null (any case, conservatively), and 1.1's `=` and `<<` keys. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~|=|<<)$/i;
/**
 * Numbers in YAML 1.1 or 1.2: integers, hex, octal, binary, infinities, NaN, and floats, which in 1.1 are any
 * run of digits, `_` and dots with at least one dot (`.`, `1.2.3`), optionally with an exponent.
 */
const NUMBER_LIKE = /^[-+]?(?:\d[\d_]*(?:e[-+]?\d+)?|[\d_]*\.[\d._]*(?:e[-+]?\d+)?|0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|\.(?:inf|nan))$/i;
/** YAML 1.1 timestamps (`2024-01-31`, `2024-1-2T10:00`). */
const TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:$|[Tt ])/;
/**
 * Characters a plain scalar may hold here: letters, digits and a few marks that are neither YAML indicators
 * nor flow punctuation, so one rule serves block and flow context; no white space (`x y` is quoted: a later
 * ` #` or `: ` typed into it would end the scalar). It may not start with a mark that starts something else
 * in YAML (`-`, `@`, `(`, `+`, …).
 */
const PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9_./@()+-]*$/;

/** Can `s` be written as a plain YAML scalar, in block or flow context, and read back as the same string? */
export function isPlainSafe(s: string): boolean {
  return PLAIN.test(s) && !RESERVED.test(s) && !NUMBER_LIKE.test(s) && !TIMESTAMP.test(s);
}

/** Characters a single-quoted scalar cannot hold as they are: line breaks (they fold) and non-printable characters. */
const NOT_SINGLE_QUOTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** Characters written as `\u` escapes in double quotes beyond JSON's own: YAML 1.1 reads some as line breaks, 1.2 wants them escaped. */
const DOUBLE_QUOTED_ESCAPE = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

/** Can a single-quoted scalar hold `s` unchanged (on one line, with `'` doubled)? */
export function fitsSingleQuoted(s: string): boolean {
  return !NOT_SINGLE_QUOTABLE.test(s);
}

/** The inside of a single-quoted YAML scalar for `s` (which must fit: see fitsSingleQuoted). */
export function singleQuotedInner(s: string): string {
  return s.replace(/'/g, "''");
}

/** The inside of a double-quoted string for `s`: JSON's escapes, which YAML's double quotes share, plus `\u` for characters either reader may misread. Right for JSON strings too. */
export function doubleQuotedInner(s: string): string {
  return JSON.stringify(s).slice(1, -1).replace(DOUBLE_QUOTED_ESCAPE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/**
 * A quoted YAML scalar for `s`: in the preferred style when it can hold `s`; single quotes also when double
 * quotes would need escapes that single ones do not (`"`, `\`); else double quotes, which hold anything.
 */
export function quoteYaml(s: string, preferred: "'" | '"' = '"'): string {
  if (fitsSingleQuoted(s) && (preferred === "'" || /["\\]/.test(s))) return `'${singleQuotedInner(s)}'`;
  return `"${doubleQuotedInner(s)}"`;
}

/** A YAML scalar for `s`: plain when that is safe, else quoted (see quoteYaml). */
export function yamlScalar(s: string, preferredQuote: "'" | '"' = '"'): string {
  return isPlainSafe(s) ? s : quoteYaml(s, preferredQuote);
}
