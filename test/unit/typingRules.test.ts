// client/src/typingRules.ts: `{{` closing in JSON strings and the column Enter goes to in YAML steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeTemplate, closeYamlTemplate, inJsonString, spaceTemplate, typedSinceOpening, yamlEnterColumn } from "../../client/src/typingRules";

test("`{{` typed inside a JSON string closes to `{{ | }}`", () => {
  const line = '      "prompt": "Summarize {{';
  assert.deepEqual(closeTemplate(line, line.length), { before: " ", after: " }}" });
  const before = '      "prompt": "{{", "x": 1';
  assert.deepEqual(closeTemplate(before, before.indexOf("{{") + 2), { before: " ", after: " }}" });
});

test("not outside a string, not after a single `{` or a third one, not where `}}` follows", () => {
  const outside = '  "with": {{';
  assert.equal(closeTemplate(outside, outside.length), undefined);
  const one = '  "prompt": "a {';
  assert.equal(closeTemplate(one, one.length), undefined);
  const three = '  "prompt": "a {{{';
  assert.equal(closeTemplate(three, three.length), undefined);
  const closed = '  "prompt": "a {{ }}"';
  assert.equal(closeTemplate(closed, closed.indexOf("{{") + 2), undefined);
  const escaped = '  "prompt": "say \\"{{';
  assert.deepEqual(closeTemplate(escaped, escaped.length), { before: " ", after: " }}" }, "an escaped quote does not end the string");
  assert.equal(inJsonString('"a" "b', 6), true);
  assert.equal(inJsonString('"a" "b"', 7), false);
});

test("YAML Enter: after `- key: value` under the key; after `key:` one level in; after `key: value` the same column", () => {
  assert.equal(yamlEnterColumn("  - id: classify"), 4);
  assert.equal(yamlEnterColumn("- id: classify"), 2);
  assert.equal(yamlEnterColumn("  -   id: classify"), 6);
  assert.equal(yamlEnterColumn("  - with:"), 6);
  assert.equal(yamlEnterColumn("    uses: ai.generate"), 4);
  assert.equal(yamlEnterColumn("    with:"), 6);
  assert.equal(yamlEnterColumn("      model: gpt-4o"), 6);
  assert.equal(yamlEnterColumn("    output: {mode: text}"), 4);
  assert.equal(yamlEnterColumn("steps:"), 2);
  assert.equal(yamlEnterColumn("    needs: [a, b]  # why"), 4);
});

test("YAML Enter: no rule where the line does not say (block scalars, open flow collections, plain items, comments)", () => {
  assert.equal(yamlEnterColumn("      prompt: |"), undefined);
  assert.equal(yamlEnterColumn("  - text: >-"), undefined);
  assert.equal(yamlEnterColumn("    needs: [a,"), undefined);
  assert.equal(yamlEnterColumn("    - gpt-4o"), undefined);
  assert.equal(yamlEnterColumn("  # a comment"), undefined);
  assert.equal(yamlEnterColumn(""), undefined);
});

test("YAML: `{{}}` as VS Code closed it gets its spaces; not `{}` alone, a third brace or text between", () => {
  const line = '      prompt: "Summarize {{}}"';
  const at = line.indexOf("{{") + 2;
  assert.deepEqual(spaceTemplate(line, at), { before: " ", after: " " });
  assert.equal(spaceTemplate('  a: {}', 6), undefined);
  assert.equal(spaceTemplate('  a: {{{}}}', 8), undefined);
  assert.equal(spaceTemplate('  a: "{{x}}"', 8), undefined);
});

test("the aid's `{{ | }}` may land after the keys typed since `{{`, unless the user typed a space, brace or quote", () => {
  const json = '"prompt": "{{inp"';
  const from = json.indexOf("{{");
  assert.equal(typedSinceOpening(json, from, from + 5, false), "inp");
  assert.equal(typedSinceOpening('"prompt": "{{"', from, from + 2, false), "");
  assert.equal(typedSinceOpening('"p": "{{ inp"', 6, 12, false), undefined, "a space typed: the user closes it themselves");
  assert.equal(typedSinceOpening('"p": "{{inp }}"', 6, 11, false), undefined, "closed already");
  assert.equal(typedSinceOpening('"p": "{{Release"', 6, 8, false), "", "`{{` typed before a word: the word stays after the closing");
  assert.equal(typedSinceOpening('"p": "{{inRelease"', 6, 10, false), "in");
  assert.equal(typedSinceOpening('"p": "{{in"p', 6, 11, false), undefined, "a quote typed");
  const yaml = 'prompt: "{{inp}}"';
  assert.equal(typedSinceOpening(yaml, 9, 14, true), "inp");
  assert.equal(typedSinceOpening('prompt: "{{inp"', 9, 14, true), undefined, "VS Code's closing is gone");
});

test("YAML: `{{` typed before a word (VS Code closes nothing there) closes as in JSON; not in a comment, not where `}}` follows", () => {
  const line = '    prompt: "{{Classify';
  assert.equal(closeYamlTemplate(line, line.indexOf("{{") + 2), true);
  assert.equal(closeYamlTemplate("    prompt: {{", 14), true);
  assert.equal(closeYamlTemplate("    # see {{", 12), false);
  assert.equal(closeYamlTemplate('    prompt: "{{ }}"', 15), false);
  assert.equal(closeYamlTemplate('    prompt: "{{{', 16), false);
  assert.equal(closeYamlTemplate('    prompt: "a {', 16), false);
});
