// Reading the properties of the JSON Schemas in a workflow (input, step outputs), for completion and hover.
import { isObject } from "../lwir/validate";

/** The properties a schema declares, its own and those of its anyOf/oneOf branches, first one wins. */
export function propertiesOf(schema: unknown): Array<{ name: string; schema: unknown; required: boolean }> {
  const out: Array<{ name: string; schema: unknown; required: boolean }> = [];
  const seen = new Set<string>();
  const visit = (s: unknown, depth: number) => {
    if (!isObject(s) || depth > 4) return;
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
    if (isObject(s.properties)) {
      for (const [name, sub] of Object.entries(s.properties)) {
        if (seen.has(name)) continue;
        seen.add(name);
        out.push({ name, schema: sub, required: required.has(name) });
      }
    }
    for (const u of [s.anyOf, s.oneOf]) if (Array.isArray(u)) for (const b of u) visit(b, depth + 1);
  };
  visit(schema, 0);
  return out;
}

/** The sub-schema at a property path (digits step into `items`); `true` where anything goes. */
export function schemaAt(schema: unknown, names: readonly string[]): unknown {
  let s = schema;
  for (const name of names) {
    if (s === true) return true;
    if (!isObject(s)) return undefined;
    if (/^\d+$/.test(name) && s.items !== undefined) { s = s.items; continue; }
    const p = propertiesOf(s).find((x) => x.name === name);
    if (p) s = p.schema;
    else if (s.additionalProperties !== undefined && s.additionalProperties !== false) s = s.additionalProperties === true ? true : s.additionalProperties;
    else return undefined;
  }
  return s;
}
