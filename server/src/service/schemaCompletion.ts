// Completion of property paths inside `{{ }}` from the declared schemas (`input.`, `item.`,
// `steps.X.output.`, `.lastOutput.`, `.allVisits[0].`), at every depth: which schema a typed path
// reaches, and the items for the properties it declares, with their types and descriptions.
// completion.ts finds the path being typed and writes the items into its list.
import type { CompletionItem } from "vscode-languageserver-types";
import { CompletionItemKind } from "vscode-languageserver-types";
import { declaredProperties, describeType, lookupIndex, lookupProperty, possibleValues } from "../lwir/dataTypes";
import { isObject } from "../lwir/validate";
import { schemaAt } from "./schemaInfo";

/**
 * The schema a path of names reaches from `schema` (digits index arrays), followed as the type checks
 * follow it (records, unions, allOf, enum objects); where a schema does not decide, the plain reading of
 * `properties`/`items`/`additionalProperties` takes over.
 */
export function schemaAtPath(schema: unknown, names: readonly string[]): unknown {
  let current = schema;
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    const lookup = /^\d+$/.test(name) ? lookupIndex(current, Number(name)) : lookupProperty(current, name);
    if (lookup.kind === "found") {
      current = lookup.schema;
      continue;
    }
    return lookup.kind === "unknown" ? schemaAt(current, names.slice(k)) : undefined;
  }
  return current;
}

/** One completion item per property the schema declares, in declaration order. */
export function schemaPropertyItems(schema: unknown): Array<CompletionItem & { label: string }> {
  return declaredProperties(schema).map((p, i) => {
    const type = describeType(p.schema);
    const doc: string[] = [];
    if (isObject(p.schema) && typeof p.schema.title === "string" && p.schema.title !== p.schema.description) doc.push(`**${p.schema.title}**`);
    if (isObject(p.schema) && typeof p.schema.description === "string") doc.push(p.schema.description);
    const values = possibleValues(p.schema);
    if (values && values.length > 0) doc.push(`Values: ${values.slice(0, 20).map((v) => "`" + JSON.stringify(v) + "`").join(", ")}`);
    const nested = declaredProperties(p.schema);
    if (nested.length > 0) doc.push(`Properties: ${nested.map((n) => "`" + n.name + "`").join(", ")}`);
    if (isObject(p.schema) && isObject(p.schema.items)) {
      const inner = declaredProperties(p.schema.items);
      if (inner.length > 0) doc.push(`Each element: ${inner.map((n) => "`" + n.name + "`").join(", ")}`);
    }
    return {
      label: p.name,
      kind: CompletionItemKind.Property,
      detail: type + (p.required ? " (required)" : ""),
      ...(doc.length > 0 ? { documentation: { kind: "markdown" as const, value: doc.join("\n\n") } } : {}),
      sortText: `0${String(i).padStart(4, "0")}`,
    };
  });
}
