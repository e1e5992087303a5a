import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import Ajv from "ajv";
import { parseYaml } from "./runtime-yaml";
import draft07 from "ajv/dist/refs/json-schema-draft-07.json";
import { SUBSCHEMA_ARRAY_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, checkSchema, jsKeyOrder, metaSchemaProblem } from "../../server/src/lwir/schema";
import { canonicalJson } from "../../server/src/lwir/canonical";
import { CONFORMANCE, REALWORLD, corpusCases } from "../corpus";
import { countObjectReads } from "./work-count";


// The reference's stage 2: Ajv 8 with these options (ajv.validateSchema, then ajv.errorsText), on the
// parsed-back canonical copy.
const OPTIONS = { allErrors: true, strict: false, logger: false } as const;
const ajv = new Ajv(OPTIONS);
type Verdict = "valid" | "invalid" | "throw";
function ajvVerdict(schema: unknown): Verdict {
  try {
    return ajv.validateSchema(schema as object) ? "valid" : "invalid";
  } catch {
    return "throw";
  }
}
/** What the validator sees: the value parsed back from its canonical JSON. */
const parsedBack = (v: unknown): unknown => JSON.parse(canonicalJson(v));
const ajvBySchema = new Map<string, Ajv>();
function ajvFor(key: string): Ajv {
  let a = ajvBySchema.get(key);
  if (a === undefined) ajvBySchema.set(key, (a = new Ajv(OPTIONS)));
  return a;
}
/** Real Ajv's stage-2 answer on the runtime's copy: undefined, its error list, or what it throws. */
function ajvProblem(raw: unknown): string | undefined {
  const s = parsedBack(raw) as object;
  // Resolving a $schema caches in the instance (ajv.refs): one instance per $schema value.
  const a = typeof s === "object" && s !== null && "$schema" in s ? ajvFor(JSON.stringify((s as { $schema: unknown }).$schema)) : ajv;
  try {
    return a.validateSchema(s) ? undefined : a.errorsText(a.errors);
  } catch (e) {
    return (e as Error).message;
  }
}
/** Stage 2 ours and Ajv's agree, verdict and message, on the value in its own key order. */
function assertSameAsAjv(raw: unknown, what = JSON.stringify(raw)?.slice(0, 300)): void {
  assert.equal(metaSchemaProblem(raw), ajvProblem(raw), `schema ${what}`);
}

// ---------------------------------------------------------------------------------------------
// Generators of schema-like values, biased toward draft-07 keywords with right and wrong types.

const wrong = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -5, max: 5 }),
  fc.string({ maxLength: 3 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(["a"]),
);
// Keys that exercise fast-deep-equal's shortcuts and JavaScript's key order.
const keyName = fc.constantFrom("a", "b", "__proto__", "toString", "valueOf", "constructor", "10", "9", "");
const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.constantFrom("a", "b", "string"));
const data: fc.Arbitrary<unknown> = fc.letrec((t) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(t("v"), { maxLength: 3 }),
    fc.array(fc.tuple(keyName, t("v")), { maxLength: 3 }).map((e) => Object.fromEntries(e)),
  ),
})).v;
const typeName = fc.constantFrom("array", "boolean", "integer", "null", "number", "object", "string", "foo", "");
const META_URIS = [
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
  "http://json-schema.org/draft-07/schema#/",
  "http://json-schema.org/schema",
  "http://json-schema.org/schema#",
  "https://json-schema.org/draft-07/schema#",
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2019-09/schema",
  "http://json-schema.org/draft-04/schema#",
  "http://json-schema.org/draft-06/schema#",
  "HTTP://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema/",
  "http://json-schema.org/draft-07/schema##",
  "http://json-schema.org/draft-07/schema#foo",
  "#",
  "",
  "x",
];

const schemaArb: fc.Arbitrary<unknown> = fc.letrec((t) => {
  const sch = t("schema");
  const strArr = fc.oneof(fc.array(fc.oneof(keyName, leaf), { maxLength: 4 }), wrong);
  const mapOf = (a: fc.Arbitrary<unknown>) => fc.array(fc.tuple(keyName, a), { maxLength: 3 }).map((e) => Object.fromEntries(e));
  const keywords: [string, fc.Arbitrary<unknown>][] = [
    ["$id", fc.oneof(fc.string(), wrong)],
    ["$ref", fc.oneof(fc.constantFrom("#", "#/definitions/a", "::"), wrong)],
    ["$comment", fc.oneof(fc.string(), wrong)],
    ["$schema", fc.oneof(fc.constantFrom(...META_URIS), wrong)],
    ["title", fc.oneof(fc.string(), wrong)],
    ["description", fc.oneof(fc.string(), wrong)],
    ["format", fc.oneof(fc.constantFrom("uri", "date-time", "nope"), wrong)],
    ["pattern", fc.oneof(fc.constantFrom("(", "^a$"), wrong)],
    ["contentMediaType", fc.oneof(fc.string(), wrong)],
    ["contentEncoding", wrong],
    ["default", data],
    ["const", data],
    ["examples", fc.oneof(fc.array(data, { maxLength: 3 }), wrong)],
    ["readOnly", fc.oneof(fc.boolean(), wrong)],
    ["uniqueItems", fc.oneof(fc.boolean(), wrong)],
    ["multipleOf", fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 0.5), wrong)],
    ["maximum", fc.oneof(fc.integer(), wrong)],
    ["minimum", fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), wrong)],
    ["exclusiveMaximum", fc.oneof(fc.integer(), wrong)],
    ["exclusiveMinimum", wrong],
    ["maxLength", fc.oneof(fc.nat(), fc.integer({ min: -3, max: 3 }), wrong)],
    ["minLength", fc.oneof(fc.nat(), fc.constantFrom(1.5, 1e300), wrong)],
    ["maxItems", fc.oneof(fc.nat(), wrong)],
    ["minItems", fc.oneof(fc.nat(), wrong)],
    ["maxProperties", wrong],
    ["minProperties", fc.oneof(fc.nat(), wrong)],
    ["additionalItems", fc.oneof(sch, wrong)],
    ["contains", fc.oneof(sch, wrong)],
    ["additionalProperties", fc.oneof(sch, wrong)],
    ["propertyNames", fc.oneof(sch, wrong)],
    ["if", fc.oneof(sch, wrong)],
    ["then", sch],
    ["else", sch],
    ["not", fc.oneof(sch, wrong)],
    ["items", fc.oneof(sch, fc.array(sch, { maxLength: 3 }), wrong)],
    ["required", strArr],
    ["definitions", fc.oneof(mapOf(sch), wrong)],
    ["properties", fc.oneof(mapOf(fc.oneof(sch, sch, wrong)), wrong)],
    ["patternProperties", fc.oneof(mapOf(sch), wrong)],
    ["dependencies", fc.oneof(mapOf(fc.oneof(sch, strArr)), wrong)],
    ["enum", fc.oneof(fc.array(data, { maxLength: 4 }), wrong)],
    ["type", fc.oneof(typeName, fc.array(fc.oneof(typeName, leaf), { maxLength: 3 }), wrong)],
    ["allOf", fc.oneof(fc.array(sch, { maxLength: 2 }), wrong)],
    ["anyOf", fc.oneof(fc.array(sch, { maxLength: 3 }), wrong)],
    ["oneOf", fc.oneof(fc.array(sch, { maxLength: 2 }), wrong)],
    ["x-vendor", data],
    ["nullable", data],
    ["$defs", data],
    ["writeOnly", data],
    ["deprecated", data],
  ];
  const entry = fc.oneof(...keywords.map(([k, a]) => fc.tuple(fc.constant(k), a)));
  return {
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.boolean(),
      fc.array(entry, { maxLength: 4 }).map((e) => Object.fromEntries(e)),
    ),
  };
}).schema;

// ---------------------------------------------------------------------------------------------
// Stage 2 against real Ajv

test("differential: stage-2 verdict and message equal Ajv 8's on generated schema-like values", () => {
  const seen: Record<Verdict, number> = { valid: 0, invalid: 0, throw: 0 };
  fc.assert(
    fc.property(schemaArb, (raw) => {
      seen[ajvVerdict(parsedBack(raw))]++;
      // In the generator's key order (the exact path re-runs on the canonical copy) and in canonical order.
      assertSameAsAjv(raw);
      assertSameAsAjv(parsedBack(raw));
    }),
    { numRuns: 6000 },
  );
  // The generator must exercise all three outcomes in earnest.
  assert.ok(seen.valid > 1000 && seen.invalid > 1000 && seen.throw > 20, JSON.stringify(seen));
});

test("differential: nested, mostly-valid schemas (deeper trees) agree with Ajv", () => {
  const tree: fc.Arbitrary<unknown> = fc.letrec((t) => ({
    s: fc.oneof(
      { depthSize: "medium", maxDepth: 8 },
      fc.boolean(),
      fc.record(
        {
          type: fc.oneof(typeName, fc.array(typeName, { maxLength: 3 })),
          properties: fc.dictionary(fc.constantFrom("a", "b", "c"), t("s"), { maxKeys: 3 }),
          items: fc.oneof(t("s"), fc.array(t("s"), { maxLength: 2 })),
          anyOf: fc.array(t("s"), { maxLength: 3 }),
          required: fc.array(fc.constantFrom("a", "b", "c", "__proto__"), { maxLength: 3 }),
          enum: fc.array(data, { maxLength: 3 }),
          minLength: fc.integer({ min: -1, max: 3 }),
        },
        { requiredKeys: [] },
      ),
    ),
  })).s;
  fc.assert(
    fc.property(tree, (raw) => {
      assertSameAsAjv(raw);
    }),
    { numRuns: 3000 },
  );
});

test("$schema: what Ajv knows, what makes it throw, and the messages, as Ajv says", () => {
  const uris: unknown[] = [
    ...META_URIS, 5, null, true, {}, [],
    "http://json-schema.org/schema#/", "http://json-schema.org/schema#/definitions/nonNegativeInteger",
    "http://JSON-SCHEMA.org/draft-07/schema#", "http://json-schema.org:80/draft-07/schema#", "http://json-schema.org/draft-07/./schema#",
    "http://json-schema.org/draft-07/schema?#", "http://json-schema.org/draft-07/%73chema#", "json-schema.org/draft-07/schema#",
    " http://json-schema.org/draft-07/schema#", "urn:x", "urn:ietf:rfc:2648", "http://[::1", "http://a b", "%", "mailto:x",
    "http://json-schema.org/schema?x#/properties/maxLength",
    // JSON pointers into the meta-schema: Ajv validates against that part of it.
    ...["/properties/default", "/definitions/nonNegativeInteger", "/definitions/nonNegativeIntegerDefault0", "/definitions", "/title",
      "/properties/type/anyOf", "/properties/type/anyOf/1", "/properties/type/anyOf/1/minItems", "/definitions/simpleTypes",
      "/definitions/simpleTypes/enum", "/properties/maxLength", "/properties/%24id", "/properties/$id", "/type", "/type/0", "/type/length",
      "/properties/items/anyOf/0", "/properties", "/properties/readOnly/default", "/properties/enum/items", "/nope", "/properties/maxLength/", "//",
      "/properties/%", "/properties/a%zz", "/toString", "/__proto__", "/constructor", "/constructor/name", "/title/length", "/type/0/0",
      "/definitions/stringArray/default", "/properties/properties", "/properties/dependencies/additionalProperties",
    ].map((p) => `http://json-schema.org/draft-07/schema#${p}`),
    "http://json-schema.org/draft-07/schema#%2Fproperties%2FmaxLength",
  ];
  const bodies: object[] = [
    { type: "object" },
    { type: 5, minimum: "x", properties: { a: { type: "nope" } } },
    { minLength: 2 },
    { type: "string", enum: ["a", "a"] },
  ];
  let thrown = 0;
  for (const uri of uris) {
    for (const body of bodies) {
      const s = { $schema: uri, ...body };
      const expected = ajvProblem(s);
      assert.equal(metaSchemaProblem(s), expected, `$schema ${JSON.stringify(uri)} ${JSON.stringify(body)}`);
      if (expected !== undefined && !expected.startsWith("data")) thrown++;
      // A root $schema always ends with exactly one finding: Ajv's verdict, or stage 3 refusing the key.
      assert.equal(checkSchema(s).length, 1, `$schema ${JSON.stringify(uri)}`);
    }
  }
  assert.ok(thrown > 80, `thrown ${thrown}`);
  assert.equal(metaSchemaProblem({ $schema: "http://json-schema.org/draft-07/schema#", minimum: "3" }), "data/minimum must be number");
  assert.equal(metaSchemaProblem({ $schema: "https://json-schema.org/draft/2020-12/schema" }), 'no schema with key or ref "https://json-schema.org/draft/2020-12/schema"');
  // Nested $schema is just a string-typed keyword.
  assert.equal(metaSchemaProblem({ properties: { a: { $schema: "urn:whatever" } } }), undefined);
  assert.equal(metaSchemaProblem({ properties: { a: { $schema: 5 } } }), "data/properties/a/$schema must be string");
});

test("Ajv quirks reproduced: fast-deep-equal's valueOf/toString shortcut and a repeated __proto__", () => {
  const cases: [string, Verdict][] = [
    ['{"enum":[{},{"valueOf":1}]}', "throw"],
    ['{"enum":[{"valueOf":1},{}]}', "valid"],
    ['{"enum":[{"a":1},{"toString":1}]}', "throw"],
    ['{"enum":[{"toString":1},{"a":1}]}', "valid"],
    ['{"enum":[[{"valueOf":1}],[{"valueOf":2}]]}', "throw"],
    ['{"enum":[{"a":{"valueOf":1},"b":1},{"a":{"valueOf":1},"b":2}]}', "valid"],
    ['{"enum":[{"a":{"valueOf":1},"b":1},{"b":1,"a":{"valueOf":2}}]}', "throw"],
    ['{"enum":[{"constructor":1,"a":1},{"constructor":1,"a":2}]}', "valid"],
    ['{"enum":[{"constructor":1,"valueOf":1},{"constructor":2,"valueOf":1}]}', "valid"],
    ['{"enum":[{"constructor":{},"a":1},{"constructor":{},"a":1}]}', "valid"],
    ['{"enum":[{"a":1,"b":2},{"b":2,"a":1}]}', "invalid"],
    ['{"enum":[1,1]}', "invalid"],
    ['{"enum":[]}', "invalid"],
    ['{"required":["__proto__","__proto__"]}', "valid"],
    ['{"required":["toString","toString"]}', "invalid"],
    ['{"dependencies":{"a":["__proto__","__proto__"]}}', "valid"],
    ['{"dependencies":{"a":["x","x"]}}', "invalid"],
    ['{"type":[{},{"valueOf":1}]}', "throw"],
    ['{"minLength":1e300}', "valid"],
    ['{"minLength":5.0}', "valid"],
    ['{"multipleOf":1e-300}', "valid"],
    ['{"pattern":"("}', "valid"],
    ['{"format":"no-such-format","$id":":: not a uri"}', "valid"],
    ['{"patternProperties":{"(":{}}}', "valid"],
    ['{"writeOnly":5,"nullable":"x","$defs":3,"deprecated":[]}', "valid"],
  ];
  for (const [text, expected] of cases) {
    const s = JSON.parse(text) as unknown;
    assert.equal(ajvVerdict(s), expected, `Ajv on ${text}`);
    assertSameAsAjv(s, text);
  }
  assert.equal(metaSchemaProblem(JSON.parse('{"enum":[{},{"valueOf":1}]}')), "a.valueOf is not a function");
});

// ---------------------------------------------------------------------------------------------
// checkSchema: counts per catalog 3.2

/** [schema, number of findings] */
const TABLE: [string, unknown, number][] = [
  // stage 1
  ["null", null, 1],
  ["array", [], 1],
  ["string", "object", 1],
  ["number", 5, 1],
  ["true", true, 0],
  ["false", false, 0],
  ["empty object", {}, 0],
  // stage 2 examples of the catalog: one finding, stop
  ["minimum: '3'", { minimum: "3", format: "x" }, 1],
  ["enum: 5", { enum: 5 }, 1],
  ["required: 'a'", { required: "a" }, 1],
  ["properties: []", { properties: [], pattern: "x" }, 1],
  ["anyOf: []", { anyOf: [] }, 1],
  ["description: 42", { description: 42 }, 1],
  ["duplicate type array", { type: ["string", "string"] }, 1],
  ["propertyNames: 'string'", { propertyNames: "string" }, 1],
  ["unknown type", { type: "date" }, 1],
  ["deep stage-2 error hides stage-3 problems", { format: "x", properties: { a: { pattern: "y" }, b: { minLength: -1 } } }, 1],
  // unknown or unsupported keywords: one per object, children of that object unchecked
  ["format", { type: "string", format: "email" }, 1],
  ["pattern + format", { type: "string", pattern: "^a", format: "email" }, 1],
  ["keyword hides children", { format: "x", properties: { a: { pattern: "y" } } }, 1],
  ["two bad children", { type: "object", properties: { a: { pattern: "y" }, b: { default: 1 } } }, 2],
  ["vendor extension", { "x-foo": 1 }, 1],
  ["$ref/definitions", { $ref: "#/definitions/a", definitions: { a: {} } }, 1],
  ["nullable", { type: "string", nullable: true }, 1],
  ["annotations allowed", { type: "string", title: "t", description: "d", examples: ["x"] }, 0],
  // type arrays
  ["type array with object", { type: ["object", "null"] }, 1],
  ["type array with array", { type: ["string", "array"] }, 1],
  ["primitive type array", { type: ["string", "null", "integer"] }, 0],
  // required
  ["required without properties", { type: "object", required: ["a"] }, 1],
  ["empty required without properties", { type: "object", required: [] }, 1],
  ["required with propertyNames", { type: "object", required: ["a"], propertyNames: { type: "string" } }, 0],
  ["required keys missing from properties", { properties: { a: {} }, required: ["a", "b", "c"] }, 2],
  ["required all present", { properties: { a: {}, b: true }, required: ["b", "a"] }, 0],
  // propertyNames
  ["propertyNames number", { type: "object", propertyNames: { type: "number" } }, 1],
  ["propertyNames union with integer", { propertyNames: { anyOf: [{ type: "string" }, { type: "integer" }] } }, 1],
  ["propertyNames type array with null", { propertyNames: { type: ["string", "null"] } }, 1],
  ["propertyNames pattern", { propertyNames: { type: "string", pattern: "^x" } }, 1],
  ["propertyNames number + pattern", { propertyNames: { type: "number", pattern: "^x" } }, 2],
  ["propertyNames nested union", { propertyNames: { oneOf: [{ anyOf: [{ type: "integer" }] }] } }, 2],
  ["propertyNames string", { propertyNames: { type: "string", minLength: 1 } }, 0],
  ["propertyNames true", { propertyNames: true }, 0],
  // items
  ["tuple items", { type: "array", items: [{ type: "string" }] }, 1],
  ["tuple items are not walked", { items: [{ format: "x" }, { pattern: "y" }] }, 1],
  ["items schema walked", { type: "array", items: { type: "string", format: "x" } }, 1],
  ["items boolean", { items: false }, 0],
  // unions
  ["primitive union", { anyOf: [{ type: "string" }, { type: "number" }, true, false] }, 0],
  ["boolean and object branch", { anyOf: [true, { type: "object" }] }, 1],
  ["branch without type", { anyOf: [{ const: 1 }] }, 1],
  ["array branch", { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, 1],
  ["bad anyOf and bad oneOf", { anyOf: [{ type: "array" }], oneOf: [{ enum: [1] }] }, 2],
  [
    "discriminated union",
    {
      oneOf: [
        { type: "object", properties: { kind: { const: "a" }, x: { type: "string" } }, required: ["kind", "x"] },
        { type: "object", properties: { kind: { enum: ["b"] } }, required: ["kind"] },
      ],
    },
    0,
  ],
  [
    "different discriminators",
    {
      anyOf: [
        { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
        { type: "object", properties: { tag: { const: "b" } }, required: ["tag"] },
      ],
    },
    1,
  ],
  [
    "discriminator not required",
    {
      anyOf: [
        { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
        { type: "object", properties: { kind: { const: "b" } } },
      ],
    },
    1,
  ],
  [
    "first tagged property in key order decides",
    {
      anyOf: [
        { type: "object", properties: { b: { const: 1 }, a: { const: 2 } }, required: ["b", "a"] },
        { type: "object", properties: { a: { const: 3 } }, required: ["a"] },
      ],
    },
    0,
  ],
  [
    "integer-like keys come first, in numeric order (as in the parsed-back copy)",
    {
      anyOf: [
        { type: "object", properties: { "10": { const: 1 }, "9": { const: 2 } }, required: ["10", "9"] },
        { type: "object", properties: { "9": { const: 3 } }, required: ["9"] },
      ],
    },
    0,
  ],
  [
    "const null counts as present",
    { oneOf: [{ type: "object", properties: { k: { const: null } }, required: ["k"] }] },
    0,
  ],
  [
    "problems inside branches are reported too",
    {
      anyOf: [
        { type: "object", properties: { k: { const: "a" }, v: { format: "x" } }, required: ["k"] },
        { type: "object", properties: { k: { const: "b" }, v: { minimum: 3, maximum: 1 } }, required: ["k"] },
      ],
    },
    2,
  ],
  // ordered bounds
  ["minimum > maximum", { minimum: 5, maximum: 3 }, 1],
  ["all three bounds inverted", { minimum: 5, maximum: 3, minItems: 2, maxItems: 1, minLength: 9, maxLength: 0 }, 3],
  ["equal bounds", { minimum: 3, maximum: 3, minLength: 1, maxLength: 1 }, 0],
  // nesting through every walked position
  [
    "walk reaches properties, additionalProperties, propertyNames, items, anyOf, oneOf",
    {
      type: "object",
      properties: { a: { format: "x" } },
      additionalProperties: { pattern: "x" },
      propertyNames: { default: "x" },
      items: { not: {} },
      anyOf: [{ type: "string", $comment: "x" }],
      oneOf: [{ type: "number", multipleOf: 2 }],
    },
    6,
  ],
  ["additionalProperties true is fine", { additionalProperties: true }, 0],
];

test("checkSchema: one row per rule of catalog 3.2 (finding counts)", () => {
  for (const [name, schema, count] of TABLE) {
    const s = parsedBack(schema);
    const got = checkSchema(s);
    assert.equal(got.length, count, `${name}: ${JSON.stringify(got)}`);
    for (const m of got) assert.equal(typeof m.message, "string");
  }
});

test("checkSchema: the key named in messages is the first in key order", () => {
  const first = (schema: unknown) => checkSchema(schema, "input.schema")[0];
  assert.match(first({ type: "string", pattern: "x", format: "y" }).message, /"format"/);
  assert.match(first({ zzz: 1, "10": 1, "9": 1 }).message, /"9"/);
  assert.match(first({ type: ["string", "object", "array"] }).message, /"object"/);
  assert.match(first(null).message, /^input\.schema must be a JSON Schema \(an object, or true or false\), not null\.$/);
});

test("checkSchema: messages name the user's path and say where the wrong node is, never Ajv's data/… pointer", () => {
  assert.deepEqual(checkSchema({ minimum: "3" }, "input.schema")[0],
    { at: ["minimum"], message: "input.schema.minimum must be number, so input.schema is not a valid JSON Schema (draft-07)." });
  assert.deepEqual(checkSchema({ anyOf: [] }, "output.schema")[0],
    { at: ["anyOf"], message: "output.schema.anyOf must have at least 1 item, so output.schema is not a valid JSON Schema (draft-07)." });
  assert.deepEqual(checkSchema({ type: "object", properties: { "a b": { type: "string", format: "email" } } }, "input.schema")[0],
    { at: ["properties", "a b"], message: `LWIR schemas do not support the keyword "format" (in input.schema.properties["a b"]). They may use only type, properties, required, additionalProperties, items, enum, const, anyOf, oneOf, minLength, maxLength, minimum, maximum, minItems, maxItems, propertyNames, description, title, examples.` });
  assert.deepEqual(checkSchema({ type: "array", items: [{ type: "string" }] }, "input.schema")[0].at, ["items"]);
});
test("checkSchema: __proto__ keys are ordinary keys", () => {
  const s = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__","__proto__"]}') as unknown;
  assert.equal(ajvVerdict(s), "valid");
  assert.deepEqual(checkSchema(s), []);
  // `"__proto__" in {}` is true: every plain object inherits it (catalog 3.2, stage 3).
  const inherited = JSON.parse('{"properties":{},"required":["__proto__","__proto__"]}') as unknown;
  assert.equal(checkSchema(inherited).length, 0);
  assert.equal(checkSchema(JSON.parse('{"properties":{},"required":["__proto","x"]}') as unknown).length, 2);
});

test("checkSchema: key order of the input does not matter", () => {
  fc.assert(
    fc.property(schemaArb, (raw) => {
      const s = parsedBack(raw);
      const reversed = reverseKeys(s);
      // Findings are a multiset: compare sorted.
      assert.deepEqual(checkSchema(reversed).map((p) => p.message).sort(), checkSchema(s).map((p) => p.message).sort());
    }),
    { numRuns: 1000 },
  );
});

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse()) {
    Object.defineProperty(out, k, { value: reverseKeys((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

test("jsKeyOrder is the order of Object.keys on a parsed object", () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 5000 }).map(String), fc.constantFrom("4294967294", "4294967295", "01", "-1")), { maxLength: 12 }), (keys) => {
      // The canonical text lists keys sorted by code units; parsing it back gives the validator's copy.
      const text = "{" + [...keys].sort().map((k) => JSON.stringify(k) + ":0").join(",") + "}";
      assert.deepEqual([...keys].sort(jsKeyOrder), Object.keys(JSON.parse(text) as object));
    }),
    { numRuns: 500 },
  );
});

test("never throws and never overflows: 5,000-deep valid schemas, 100,000-deep and cyclic values", () => {
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 5000; i++) deep = { type: "object", properties: { a: deep }, anyOf: [{ type: "object", properties: { k: { const: i } }, required: ["k"] }] };
  assert.deepEqual(checkSchema(deep), []);
  // Deeper than any document within the nesting limit: a guard answers instead of the stack.
  let items: unknown = true;
  for (let i = 0; i < 100_000; i++) items = { items };
  assert.equal(checkSchema(items).length, 1);
  let bad: unknown = { format: "x" };
  for (let i = 0; i < 100_000; i++) bad = { items: bad, propertyNames: { anyOf: [{ type: "string" }] } };
  assert.equal(checkSchema(bad).length, 1);
  let enumDeep: unknown = 1;
  for (let i = 0; i < 100_000; i++) enumDeep = [enumDeep];
  assert.equal(checkSchema({ enum: [enumDeep, enumDeep] }).length, 1); // duplicates, compared iteratively
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { self: cyclic };
  assert.ok(checkSchema(cyclic).length >= 1);
  const cyclicEnum: unknown[] = [];
  cyclicEnum.push(cyclicEnum);
  assert.ok(checkSchema({ enum: [cyclicEnum, cyclicEnum] }).length >= 1);
});

// ---------------------------------------------------------------------------------------------
// The corpus

interface Label {
  findings: { code: string; path: string }[];
  valid: boolean;
}

/** Schema positions the validator checks (catalog 2 step 4, 3.2, 3.5), with their paths. */
function schemaPositions(doc: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObj(doc)) return out;
  for (const k of ["input", "output"]) {
    const o = doc[k];
    if (isObj(o) && Object.prototype.hasOwnProperty.call(o, "schema")) out.push([`$.${k}.schema`, o.schema]);
  }
  const list = (steps: unknown[], at: string): void => {
    steps.forEach((s, i) => {
      if (!isObj(s)) return;
      const id = s.id;
      if (typeof id !== "string" || id === "" || /[.[\]]/.test(id) || id.includes("@attempt_")) return;
      const S = `${at}[${i}]`;
      const output = s.output;
      if (s.uses !== "decision" && isObj(output) && ["object", "array", "json"].includes(output.mode as string) && output.schema !== undefined) {
        out.push([`${S}.output.schema`, output.schema]);
      }
      if (s.uses === "parallel" && isObj(s.with) && Array.isArray(s.steps)) list(s.steps, `${S}.steps`);
    });
  };
  if (Array.isArray(doc.steps)) list(doc.steps, "$.steps");
  return out;
}

test("corpus: finding counts at labelled schema positions, and [] for every schema of a valid case", () => {
  let labelled = 0;
  let validSchemas = 0;
  for (const dir of [CONFORMANCE, REALWORLD]) {
    for (const f of corpusCases(dir).map((c) => c.name)) {
      const m = /^(.*)\.lwir\.(json|yaml)$/.exec(f);
      if (!m) continue;
      const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8")) as Label;
      if (label.findings.some((x) => x.code === "lwir.non_hashable")) continue;
      const text = readFileSync(join(dir, f), "utf8");
      const doc = parsedBack(m[2] === "json" ? JSON.parse(text) : parseYaml(text));
      for (const [path, schema] of schemaPositions(doc)) {
        const expected = label.findings.filter((x) => x.code === "schema.invalid" && x.path === path).length;
        if (!label.valid && expected === 0) continue;
        const got = checkSchema(schema);
        assert.equal(got.length, expected, `${f} ${path}: ${JSON.stringify(got)}`);
        if (label.valid) validSchemas++;
        else labelled++;
      }
      // Every labelled schema.invalid at a schema position is accounted for by a position found above.
      const positions = new Set(schemaPositions(doc).map(([p]) => p));
      for (const x of label.findings) {
        if (x.code === "schema.invalid" && /(^\$\.(input|output)|\.output)\.schema$/.test(x.path)) assert.ok(positions.has(x.path), `${f}: ${x.path}`);
      }
    }
  }
  assert.ok(labelled >= 25 && validSchemas >= 100, `labelled ${labelled}, valid ${validSchemas}`);
});

test("work: checking a schema reads it a bounded number of times, however many properties it has", () => {
  // Schemas of realistic size, thousands per document: checking must stay proportional to their size (counted
  // in reads of the schema, work-count.ts; its time is the benchmark's business).
  const schema = (properties: number) => ({
    type: "object",
    required: ["p0", "p1", "p2"],
    properties: Object.fromEntries(Array.from({ length: properties }, (_, i) => [`p${i}`, [
      { type: "string", minLength: 1 },
      { type: "number", minimum: 0, maximum: 1 },
      { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 5 },
      { anyOf: [{ type: "string" }, { type: "null" }] },
      { type: ["string", "null"], description: "x" },
    ][i % 5]])),
    additionalProperties: false,
  });
  const reads = (properties: number) => countObjectReads(schema(properties), (s) => assert.deepEqual(checkSchema(s), []));
  const [small, large] = [reads(50), reads(100)];
  assert.ok(large <= 2.2 * small, `${small} reads with 50 properties, ${large} with 100`);
  assert.ok(large <= 100 * 100, `${large} reads of a schema with 100 properties`);
});

// ---------------------------------------------------------------------------------------------
// Stage 2 is Ajv's generated code: up to date, cut where the meta-schema recurses, and equal to Ajv

test("the generated draft-07 validator is up to date with the installed Ajv", () => {
  const r = spawnSync(process.execPath, [join("scripts", "gen-draft07-validator.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(join("server", "src", "lwir", "draft07-validator.generated.ts"), "utf8");
  assert.ok(text.includes(`from ajv ${(JSON.parse(readFileSync(join("node_modules", "ajv", "package.json"), "utf8")) as { version: string }).version};`));
  // No code is compiled at run time.
  assert.doesNotMatch(text, /new Function|\beval\(|require\(/);
});

test("deep schemas are cut only where the draft-07 meta-schema validates a schema again", () => {
  const props = (draft07 as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  const isSelf = (s: unknown): boolean => JSON.stringify(s) === '{"$ref":"#"}';
  const isList = (s: unknown): boolean => JSON.stringify(s) === '{"$ref":"#/definitions/schemaArray"}';
  const branches = (s: Record<string, unknown>): unknown[] => (Array.isArray(s.anyOf) ? s.anyOf : [s]);
  const single = Object.keys(props).filter((k) => branches(props[k]).some(isSelf));
  const list = Object.keys(props).filter((k) => branches(props[k]).some(isList));
  const map = Object.keys(props).filter((k) => {
    const ap = props[k].additionalProperties as Record<string, unknown> | undefined;
    return props[k].type === "object" && ap !== undefined && branches(ap).some(isSelf);
  });
  assert.deepEqual([...SUBSCHEMA_KEYWORDS].sort(), single.sort());
  assert.deepEqual([...SUBSCHEMA_ARRAY_KEYWORDS].sort(), list.sort());
  assert.deepEqual([...SUBSCHEMA_MAP_KEYWORDS].sort(), map.sort());
});

/** Seeded PRNG (mulberry32): the same mutants on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const META_KEYWORDS = Object.keys((draft07 as { properties: object }).properties);
const ODD_KEYS = [...META_KEYWORDS, "__proto__", "constructor", "toString", "valueOf", "length", "0", "10", "x-vendor", "$defs", "nullable"];
const ODD_VALUES: unknown[] = [
  null, 0, -1, 1.5, 1e300, "", "x", "string", "object", true, false, [], {}, ["a"], ["a", "a"], ["string", "string"], [1, 1], [{}, {}],
  ["string", "null"], { type: "string" }, { valueOf: 1 }, { toString: {} }, { constructor: 1 }, [{ a: 1, b: 2 }, { b: 2, a: 1 }],
  [{}, { valueOf: 1 }], ["__proto__", "__proto__"], { a: true }, { a: "x" }, [true, { type: 5 }],
];

function corpusSchemas(): unknown[] {
  const out: unknown[] = [];
  for (const dir of [CONFORMANCE, REALWORLD]) {
    for (const f of corpusCases(dir).map((c) => c.name)) {
      const m = /\.lwir\.(json|yaml)$/.exec(f);
      if (!m) continue;
      let doc: unknown;
      try {
        const text = readFileSync(join(dir, f), "utf8");
        doc = parsedBack(m[1] === "json" ? JSON.parse(text) : parseYaml(text));
      } catch {
        continue; // unparsable or non-hashable cases
      }
      for (const [, s] of schemaPositions(doc)) if (typeof s === "boolean" || (typeof s === "object" && s !== null && !Array.isArray(s))) out.push(s);
    }
  }
  return out;
}

/** One structure-aware mutation somewhere in `root` (a fresh copy); returns the new root. */
function mutate(root: unknown, r: () => number): unknown {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const containers: [Record<string, unknown> | unknown[], unknown][] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    containers.push([v as Record<string, unknown>, v]);
    for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  if (containers.length === 0 || r() < 0.05) return pick([{ $defs: root }, { definitions: { a: root } }, { items: [root] }, { anyOf: [root, root] }, { not: root }, { dependencies: { a: root, b: ["x", "x"] } }]);
  const [c] = pick(containers);
  const set = (k: string | number, v: unknown): void => {
    Object.defineProperty(c, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
  const keys = Object.keys(c);
  switch (Math.floor(r() * 7)) {
    case 0:
      if (keys.length > 0 && !Array.isArray(c)) delete (c as Record<string, unknown>)[pick(keys)];
      break;
    case 1:
      if (Array.isArray(c)) c.push(c.length > 0 ? pick(c) : pick(ODD_VALUES));
      else set(pick(ODD_KEYS), structuredClone(pick(ODD_VALUES)));
      break;
    case 2:
      if (keys.length > 0) set(Array.isArray(c) ? Number(pick(keys)) : pick(keys), structuredClone(pick(ODD_VALUES)));
      break;
    case 3:
      if (keys.length > 0 && !Array.isArray(c)) {
        const k = pick(keys);
        const v = (c as Record<string, unknown>)[k];
        delete (c as Record<string, unknown>)[k];
        set(pick(ODD_KEYS), v);
      }
      break;
    case 4:
      // the same content in another key order
      if (!Array.isArray(c)) {
        const entries = keys.map((k) => [k, (c as Record<string, unknown>)[k]] as const).reverse();
        for (const k of keys) delete (c as Record<string, unknown>)[k];
        for (const [k, v] of entries) set(k, v);
      }
      break;
    case 5:
      if (typeof root === "object" && root !== null && !Array.isArray(root)) {
        Object.defineProperty(root, "$schema", { value: pick(["", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/schema", "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#/definitions/stringArray", 7]), enumerable: true, writable: true, configurable: true });
      }
      break;
    default:
      if (keys.length > 0) {
        const k = pick(keys);
        const v = (c as Record<string, unknown>)[k];
        set(Array.isArray(c) ? Number(k) : k, pick([{ type: "object", properties: { a: v } }, { anyOf: [v, true] }, [v, v], { items: v }, { definitions: { d: v } }]));
      }
  }
  return root;
}

test("differential: mutations of every corpus schema get Ajv's verdict and message", () => {
  const schemas = corpusSchemas();
  assert.ok(schemas.length > 300, `${schemas.length} corpus schemas`);
  const r = prng(13);
  let invalid = 0;
  let total = 0;
  for (const s of schemas) {
    for (let n = 0; n < 12; n++) {
      let m: unknown = structuredClone(s);
      for (let k = 1 + Math.floor(r() * 3); k > 0; k--) m = mutate(m, r);
      if (typeof m !== "boolean" && (typeof m !== "object" || m === null || Array.isArray(m))) continue;
      const expected = ajvProblem(m);
      assert.equal(metaSchemaProblem(m), expected, `schema ${JSON.stringify(m).slice(0, 300)}`);
      total++;
      if (expected !== undefined) invalid++;
    }
  }
  assert.ok(total > 3000 && invalid > total / 5 && invalid < total, `${invalid} of ${total} invalid`);
});

test("differential: hand-picked edge cases", () => {
  const cases: unknown[] = [
    true, false, {},
    // every keyword with every odd value
    ...META_KEYWORDS.flatMap((k) => ODD_VALUES.map((v) => ({ [k]: v }))),
    { type: ["string", "string"] }, { type: ["null", "string", "null", "integer", "integer"] }, { type: [] }, { type: ["string", 5, "string"] },
    { definitions: { a: { definitions: { b: { definitions: { c: { type: "nope", minimum: "1" } } } } }, d: 5 } },
    { properties: { a: false, b: true, c: { properties: { d: { items: [true, false, { type: 1 }] } } } } },
    { dependencies: { a: ["b", "b"], c: { minLength: -1 }, d: 5, e: [], f: [1, "x"] } },
    { items: [], additionalItems: { items: {} } }, { anyOf: [], oneOf: [{}], allOf: [{ not: [] }] },
    { enum: [{ a: 1, b: { valueOf: 1 } }, { b: { valueOf: 1 }, a: 2 }] },
    JSON.parse('{"enum":[{"b":{"valueOf":1},"a":1},{"a":2,"b":{"valueOf":1}}]}'),
    JSON.parse('{"properties":{"__proto__":{"type":5}},"required":["__proto__","__proto__"]}'),
    { properties: { "a/b": { type: 1 }, "c~d": { type: 2 }, "": { type: 3 } } },
  ];
  // Huge: many properties with a few errors, a long enum whose duplicate is at the end, long type arrays.
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 5000; i++) wide[`p${i}`] = i % 997 === 0 ? { type: "nope" } : { type: "string", description: `d${i}` };
  cases.push({ type: "object", properties: wide }, { enum: [...Array.from({ length: 3000 }, (_, i) => `v${i}`), "v7"] });
  cases.push({ enum: Array.from({ length: 400 }, (_, i) => ({ k: i, v: [i] })) });
  for (const c of cases) assertSameAsAjv(c);
});

/** A chain of `levels` schemas through `via`, with `bad` at the levels listed in `errorsAt`. */
function chain(levels: number, via: (inner: unknown) => object, errorsAt: number[], bad: object = { minLength: -1, type: "nope" }): unknown {
  let s: unknown = { type: "string" };
  for (let i = levels - 1; i >= 0; i--) s = { ...via(s), ...(errorsAt.includes(i) ? bad : {}) };
  return s;
}

test("deep schemas are validated in pieces with Ajv's errors in Ajv's order", () => {
  // Ajv itself stays within the stack here (up to a few hundred levels): compare with it directly.
  const vias: ((inner: unknown) => object)[] = [
    (s) => ({ items: s }),
    (s) => ({ properties: { a: s, b: { type: 1 } } }),
    (s) => ({ anyOf: [{ type: "string" }, s] }),
    (s) => ({ items: [s, true] }),
    (s) => ({ dependencies: { x: s, y: ["z", "z"] } }),
    (s) => ({ not: s, definitions: { d: { minimum: "1" } } }),
    (s) => ({ items: s, contains: { type: 5 } }),
  ];
  for (const [i, via] of vias.entries()) {
    for (const errorsAt of [[], [0], [63, 64, 65, 127, 128, 129], [5, 200, 255, 256, 299], [299]]) {
      assertSameAsAjv(chain(300, via, errorsAt), `via ${i}, errors at ${errorsAt.join(",")}`);
    }
  }
  // Mixed paths, and a valueOf throw deep down.
  let level = 0;
  const mixed = (s: unknown): object => (level++ % 2 === 0 ? { properties: { "a/b": { items: s }, "c~d": { anyOf: [true] } } } : { anyOf: [{ not: s }] });
  assertSameAsAjv(chain(300, mixed, [0, 150, 299]));
  assertSameAsAjv(chain(250, (s) => ({ items: s }), [], { enum: [{}, { valueOf: 1 }] }));
  assertSameAsAjv(chain(250, (s) => ({ items: s }), [240], { enum: [{}, { valueOf: 1 }] }));
});

test("schemas deeper than Ajv's own stack allows still get Ajv's messages, without a RangeError", () => {
  // 2,400 levels (4,800 containers, within the document nesting limit).
  const s = chain(2400, (x) => ({ properties: { a: x } }), [0, 2399]);
  const path = "/properties/a".repeat(2399);
  // Ajv's order: the root's minLength, then everything under properties, then the root's type.
  const typeErrors = (at: string): string => `data${at}/type must be equal to one of the allowed values, data${at}/type must be array, data${at}/type must match a schema in anyOf`;
  assert.equal(metaSchemaProblem(s), `data/minLength must be >= 0, data${path}/minLength must be >= 0, ${typeErrors(path)}, ${typeErrors("")}`);
  assert.equal(metaSchemaProblem(chain(4900, (x) => ({ items: x }), [])), undefined);
});
