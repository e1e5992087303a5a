// Signature help for the expression functions (coalesce, date, hmac, json, len, lower, sha256, upper):
// inside `{{ … f(a, |` the function's signature, its parameters and the one being typed. Read from the
// text around the cursor, not from an analysis: while a call is being typed the template is often not
// valid yet (`{{ upper(` has no closing `)` or `}}`).
import { MarkupKind, type ParameterInformation, type SignatureHelp, type SignatureInformation } from "vscode-languageserver-types";
import { EXPRESSION_FUNCTIONS } from "../lwir/expressions";

/** How far back from the cursor the opening `{{` is looked for. */
const MAX_LOOKBACK = 4000;

export const SIGNATURE_TRIGGER_CHARACTERS = ["(", ","];
/** Typing these keeps the help open (a new argument), or closes it when the call ends. */
export const SIGNATURE_RETRIGGER_CHARACTERS = [")"];

/** The signature help at `offset` of a document's text, or null outside a call of an expression function. */
export function provideSignatureHelp(text: string, offset: number, format: "json" | "yaml"): SignatureHelp | null {
  const call = callAt(text, offset, format);
  if (!call) return null;
  const f = EXPRESSION_FUNCTIONS.find((x) => x.name === call.name);
  if (!f) return null;
  const parameters = parametersOf(f.signature);
  const last = parameters.length - 1;
  const variadic = last >= 0 && f.signature.slice(parameters[last][0], parameters[last][1]).startsWith("...");
  const active = Math.min(call.argument, variadic ? last : Math.max(last, 0));
  const signature: SignatureInformation = {
    label: f.signature,
    documentation: { kind: MarkupKind.Markdown, value: f.doc },
    parameters: parameters.map((range): ParameterInformation => ({ label: range })),
  };
  // Past the last parameter of a fixed-arity function: say which one is too many rather than point at one.
  if (!variadic && call.argument > last) {
    signature.documentation = { kind: MarkupKind.Markdown, value: `${f.doc}\n\n**${f.name} takes ${f.maxArgs} argument${f.maxArgs === 1 ? "" : "s"}.**` };
  }
  return { signatures: [signature], activeSignature: 0, activeParameter: active };
}

/** The innermost open call before `offset` inside an unclosed `{{`: its name and the index of the argument being typed. */
export function callAt(text: string, offset: number, format: "json" | "yaml"): { name: string; argument: number } | undefined {
  if (!(offset >= 0 && offset <= text.length)) return undefined;
  const from = Math.max(0, offset - MAX_LOOKBACK);
  const open = text.lastIndexOf("{{", offset - 2 >= 0 ? offset - 2 : 0);
  if (open < from || open < 0 || open + 2 > offset) return undefined;
  const between = text.slice(open + 2, offset);
  if (between.includes("}}") || (format === "json" && /[\r\n]/.test(between))) return undefined;
  // A JSON string holds `"` and `\` escaped; the expression sees them decoded.
  const body = format === "json" ? between.replace(/\\(["\\/])/g, "$1") : between;
  const stack: Array<{ name: string; argument: number }> = [];
  let depthOther = 0; // `[` … `]` (bracket indexes) hold no commas of the call
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === "'") {
      // a string literal: skip it (backslash escapes the next character); unterminated: the cursor is inside it
      let j = i + 1;
      while (j < body.length && body[j] !== c) j += body[j] === "\\" ? 2 : 1;
      if (j >= body.length) break;
      i = j;
    } else if (c === "(") {
      const m = /([A-Za-z_$][A-Za-z0-9_$]*)\s*$/.exec(body.slice(0, i));
      stack.push({ name: m ? m[1] : "", argument: 0 });
    } else if (c === ")") {
      stack.pop();
    } else if (c === "[") {
      depthOther++;
    } else if (c === "]") {
      depthOther = Math.max(0, depthOther - 1);
    } else if (c === "," && depthOther === 0 && stack.length > 0) {
      stack[stack.length - 1].argument++;
    }
  }
  const top = stack[stack.length - 1];
  return top && top.name !== "" ? top : undefined;
}

/** The parameters of a signature such as `hmac(key, value)`, as [start, end) offsets into it. */
function parametersOf(signature: string): Array<[number, number]> {
  const open = signature.indexOf("(");
  const close = signature.lastIndexOf(")");
  if (open < 0 || close <= open) return [];
  const out: Array<[number, number]> = [];
  let start = open + 1;
  for (let i = open + 1; i <= close; i++) {
    if (i === close || signature[i] === ",") {
      let s = start;
      let e = i;
      while (s < e && signature[s] === " ") s++;
      while (e > s && signature[e - 1] === " ") e--;
      if (e > s) out.push([s, e]);
      start = i + 1;
    }
  }
  return out;
}
