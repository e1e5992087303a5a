// client/src/promptPreviewText.ts: the text of a "Preview prompt" document from the server's answer, and
// its URI's path. The layout promises that the system prompt and the user message stand byte for byte
// under their rule lines (the user message to the end): read back here for awkward messages.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { NO_SYSTEM_RULE, SYSTEM_RULE, USER_RULE, promptDocumentText, promptPath, stepPathOf } from "../../client/src/promptPreviewText";
import type { PromptPreview } from "../../server/src/protocol";

/** The system prompt and user message as a reader takes them out of the document. */
function readBack(text: string): { system: string; user: string } {
  const user = text.indexOf(`\n${USER_RULE}\n`);
  assert.ok(user >= 0, text);
  const body = text.slice(user + USER_RULE.length + 2);
  const noSystem = text.indexOf(`\n${NO_SYSTEM_RULE}\n`);
  if (noSystem >= 0 && noSystem < user) return { system: "", user: body };
  const system = text.indexOf(`\n${SYSTEM_RULE}\n`);
  assert.ok(system >= 0 && system < user, text);
  return { system: text.slice(system + SYSTEM_RULE.length + 2, user), user: body };
}

const SOURCE = "file:///w/my%20flow.lwir.yaml";

describe("Preview prompt documents", () => {
  const cases: Array<[string, string]> = [
    ["You are terse.", "Summarize.\n\nInput:\n{\n  \"a\": 1\n}"],
    ["", "just the input"],
    ["line one\n\nline three\n", "ends with a line break\n"],
    ["a system prompt", "a user message with a rule inside\n──────── user message ────────\nstill the user message"],
    ["", ""],
  ];
  for (const [system, user] of cases) {
    test(`system ${JSON.stringify(system.slice(0, 20))}, user ${JSON.stringify(user.slice(0, 20))}: read back byte for byte`, () => {
      const answer: PromptPreview = { step: "draft", scenario: "the generated input", run: "draft", runs: 1, model: "m", system, user };
      const text = promptDocumentText(answer, SOURCE, "draft");
      assert.ok(text.startsWith("Prompt of step draft (model m) in my flow.lwir.yaml\nScenario: the generated input\n"), text);
      assert.deepEqual(readBack(text), { system, user });
    });
  }

  test("the first of several runs, and the notes, are said", () => {
    const text = promptDocumentText({ step: "t.draft", scenario: 'scenario "a" (f.lwir.test.yaml)', run: "t[x].draft.visit[0]", runs: 3, system: "", user: "u", notes: ["with.prompt resolved to an object"] }, SOURCE, "t.draft");
    assert.match(text, /^The step runs 3 times in this scenario; this is its first run, t\[x\]\.draft\.visit\[0\]\.$/m);
    assert.match(text, /^Note: with\.prompt resolved to an object$/m);
  });

  test("an error: no rules, the details", () => {
    const text = promptDocumentText({
      step: "second", scenario: "the generated input",
      error: { message: "Step second is not reached: the run stops at first first. Cannot read …", reached: false, stepPath: "first", at: "with.prompt", expression: "input.x.y", runtime: "Expression 'input.x.y' could not be resolved at 'y'." },
    }, SOURCE, "second");
    assert.ok(!text.includes(USER_RULE) && !text.includes(SYSTEM_RULE));
    assert.match(text, /^No prompt\. Step second is not reached/m);
    assert.match(text, /^ {2}step: {7}first \(with\.prompt\)$/m);
    assert.match(text, /^ {2}expression: input\.x\.y$/m);
    assert.match(text, /^ {2}the runtime says: Expression/m);
    assert.match(promptDocumentText({ step: "s", scenario: "", error: { message: "Bad.", reached: true } }, SOURCE, "s"), /^No prompt: the dry run stops at this step\. Bad\.$/m);
  });

  test("no answer: not an open LWIR document", () => {
    assert.equal(promptDocumentText(null, SOURCE, "draft"), "No prompt for step draft: my flow.lwir.yaml is not an open LWIR document (or it is larger than lwir.maxFileSize).\n");
  });

  test("the path names the step and gives it back", () => {
    for (const step of ["draft", "triage.draft", "a b", "x%y"]) assert.equal(stepPathOf(promptPath(step)), step);
    assert.equal(stepPathOf("/other.txt"), undefined);
  });
});
