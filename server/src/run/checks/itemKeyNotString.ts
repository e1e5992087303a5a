// lwir.item_key_not_string (runtime semantics 12.2; section 16 item 8): each branch's itemKey must resolve
// to a non-empty string, else the parallel step fails ("itemKey must resolve to a non-empty string") on
// its first item. Certain when the template's value can never be a string: a comparison or `||`/`&&`
// (always a boolean), `len(…)` (a number), or a path whose declared type has no string in it (numeric
// ids such as `{{ item.id }}` declared as an integer).
import { parseExpression, type ExprNode } from "../../lwir/expressions";
import { typesOf } from "../../lwir/dataTypes";
import { isObject } from "../../lwir/validate";
import type { RunList } from "./lists";
import { quoted, type RunNotice, type SchemaOf } from "./notice";

export const ITEM_KEY_NOT_STRING = "lwir.item_key_not_string";

export function itemKeyNotString(lists: readonly RunList[], schemaOf: SchemaOf | undefined): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    for (const step of list.steps) {
      const w = step.uses === "parallel" && isObject(step.step.with) ? step.step.with : undefined;
      const m = w && typeof w.itemKey === "string" ? /^\{\{([^{}]+)\}\}$/.exec(w.itemKey) : null;
      if (!m) continue;
      const body = m[1].trim();
      const bodyStart = 2 + m[1].indexOf(body);
      const { node, errors } = parseExpression(body);
      if (!node || errors.length > 0) continue;
      const segments = [...step.segments, "with", "itemKey"];
      const found = notString(node, body, segments, schemaOf);
      if (!found) continue;
      const text = body.slice(node.start, node.end);
      // a number written by json() is its digits: the same key for the same id
      const asText = node.kind === "path" && found.numeric;
      out.push({
        code: ITEM_KEY_NOT_STRING,
        segments,
        start: bodyStart + node.start,
        end: bodyStart + node.end,
        message: `itemKey must resolve to a non-empty string, but ${found.what}: the parallel step ${quoted(step.id)} fails on its first item.` +
          (asText ? ` Write the number as text: json(${text}).` : ""),
        ...(asText ? { replace: { text, title: `Use json(${text}) as the key`, replacement: `json(${text})` } } : {}),
      });
    }
  }
  return out;
}

/** What the value is when it can never be a string, in words; undefined when it may be one. */
function notString(node: ExprNode, body: string, segments: RunNotice["segments"], schemaOf: SchemaOf | undefined): { what: string; numeric: boolean } | undefined {
  if (node.kind === "binary") return { what: `${body} is always true or false`, numeric: false };
  if (node.kind === "call" && node.name === "len") return { what: `${body} is a number`, numeric: false };
  if (node.kind !== "path" || !schemaOf) return undefined;
  const types = typesOf(schemaOf(segments, node));
  if (!types || types.includes("string")) return undefined;
  return { what: `${body.slice(node.start, node.end)} is declared as ${types.map(article).join(" or ")}`, numeric: types.every((t) => t === "number" || t === "integer") };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
