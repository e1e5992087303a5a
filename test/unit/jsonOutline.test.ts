// client/src/jsonOutline.ts: in VS Code a JSON LWIR document has one outline (VS Code's JSON one), not two groups.
import { test } from "node:test";
import assert from "node:assert/strict";
import { editorOutlinesJson } from "../../client/src/jsonOutline";

test("VS Code's JSON support outlines json and jsonc documents while the built-in JSON extension is enabled", () => {
  assert.equal(editorOutlinesJson("json", true), true);
  assert.equal(editorOutlinesJson("jsonc", true), true);
  assert.equal(editorOutlinesJson("json", false), false, "the built-in JSON extension disabled: ours is the only outline");
});

test("YAML documents, and a document whose language is not known, keep our outline", () => {
  assert.equal(editorOutlinesJson("yaml", true), false);
  assert.equal(editorOutlinesJson(undefined, true), false);
});
