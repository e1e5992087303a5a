// client/src/wordSuggestions.ts: an LWIR document's empty completion answer carries one item without a
// label (VS Code then asks no word-based suggestions and shows nothing); other answers are untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withoutWordSuggestions } from "../../client/src/wordSuggestions";

const hidden = () => ({ label: "" });

test("an empty answer for an LWIR document (a list or an array) gets the one hidden item", () => {
  assert.deepEqual(withoutWordSuggestions({ items: [], isIncomplete: false }, hidden), { items: [{ label: "" }], isIncomplete: false });
  assert.deepEqual(withoutWordSuggestions({ items: [], isIncomplete: true }, hidden), { items: [{ label: "" }], isIncomplete: true });
  assert.deepEqual(withoutWordSuggestions([], hidden), [{ label: "" }]);
});

test("an answer with items is left as it is: VS Code asks no word-based provider after it anyway", () => {
  const answer = { items: [{ label: "gpt-4o-mini" }], isIncomplete: false };
  assert.deepEqual(withoutWordSuggestions(answer, hidden), { items: [{ label: "gpt-4o-mini" }], isIncomplete: false });
});

test("no answer (the server's null for a document that is not LWIR) stays no answer: other files keep their word suggestions", () => {
  assert.equal(withoutWordSuggestions(null, hidden), null);
  assert.equal(withoutWordSuggestions(undefined, hidden), undefined);
});
