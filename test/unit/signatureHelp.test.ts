// service/signatureHelp.ts: the signature of the expression function being called at the cursor, its
// parameters and the active one, from the text as typed (JSON and YAML).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { SignatureHelp } from "vscode-languageserver-types";
import { callAt, provideSignatureHelp } from "../../server/src/service/signatureHelp";

/** The help at the `|` of a text. */
function helpAt(marked: string, format: "json" | "yaml" = "json"): SignatureHelp | null {
  const offset = marked.indexOf("|");
  return provideSignatureHelp(marked.slice(0, offset) + marked.slice(offset + 1), offset, format);
}

function active(h: SignatureHelp | null): string | undefined {
  if (!h) return undefined;
  const sig = h.signatures[h.activeSignature ?? 0];
  const p = sig.parameters?.[h.activeParameter ?? 0];
  return Array.isArray(p?.label) ? sig.label.slice(p.label[0], p.label[1]) : String(p?.label);
}

describe("signature help", () => {
  test("the signature, its documentation and parameters as offsets into the label", () => {
    const h = helpAt('"prompt": "{{ hmac(|');
    assert.ok(h);
    assert.equal(h.signatures.length, 1);
    assert.equal(h.signatures[0].label, "hmac(key, value)");
    assert.deepEqual(h.signatures[0].parameters?.map((p) => p.label), [[5, 8], [10, 15]]);
    assert.match(JSON.stringify(h.signatures[0].documentation), /HMAC-SHA256/);
    assert.equal(active(h), "key");
  });

  test("the active parameter follows the commas at the call's own level", () => {
    assert.equal(active(helpAt('"{{ hmac(input.key, |')), "value");
    assert.equal(active(helpAt('"{{ hmac(input.k, sha256(input.a, input.b), |')), "value");
    // inside the nested call, its own parameters
    assert.equal(helpAt('"{{ hmac(input.k, sha256(input.a, |')?.signatures[0].label, "sha256(value, ...more)");
    assert.equal(active(helpAt('"{{ hmac(input.k, sha256(input.a, |')), "...more");
    // commas inside string literals and bracket indexes do not count
    assert.equal(active(helpAt(`"{{ coalesce('a, b', input['x,y'], |`)), "...rest");
    assert.equal(active(helpAt(`"{{ hmac('a, b'|`)), "key");
  });

  test("variadic functions stay on their rest parameter; fixed ones say when there are too many", () => {
    assert.equal(active(helpAt('"{{ coalesce(a, b, c, d, |')), "...rest");
    const tooMany = helpAt('"{{ upper(a, |');
    assert.equal(active(tooMany), "value");
    assert.match(JSON.stringify(tooMany?.signatures[0].documentation), /upper takes 1 argument/);
  });

  test("JSON escapes are read as the expression sees them", () => {
    assert.equal(active(helpAt('"{{ hmac(\\"a, b\\", |')), "value");
    assert.equal(active(helpAt('"{{ hmac(\\"a, b|')), "key");
  });

  test("YAML, plain and quoted", () => {
    assert.equal(active(helpAt("prompt: {{ len(|", "yaml")), "value");
    assert.equal(active(helpAt("prompt: 'x {{ hmac(input.a, |'", "yaml")), "value");
  });

  test("nothing outside a call, after it closes, outside {{ }}, or for names that are not functions", () => {
    assert.equal(helpAt('"{{ input.a |'), null);
    assert.equal(helpAt('"{{ upper(input.a) |'), null);
    assert.equal(helpAt('"{{ upper(input.a) }} and (|'), null);
    assert.equal(helpAt('"upper(|'), null);
    assert.equal(helpAt('"{{ toString(|'), null);
    assert.equal(helpAt("|"), null);
    assert.equal(callAt("{{ x(", 99, "json"), undefined);
  });
});
