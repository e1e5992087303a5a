// Issue #22, "Messages people understand", in the real workbench: what the Problems panel and the hover
// say about a schema error and about the sp500 workflow's `{{ input.company }}`, read from the page and
// held to the new wording (and failing on the old one: Ajv's `data/…` pointers, the error on `schema:`
// two lines above the wrong node, the problem said again in the hover).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { problemRowsOf } from "./workspace.mjs";

const REALWORLD = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "corpus", "realworld");

const SCHEMA_FILE = "schema-error.lwir.yaml";
const SCHEMA_DOC = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: contacts
input:
  schema:
    type: object
    properties:
      email:
        type: string
        format: email
output:
  schema: true
permissions:
  models: [gpt-4o-mini]
steps:
  - id: greet
    uses: ai.generate
    with:
      model: gpt-4o-mini
      prompt: "Write a greeting to {{ input.email }}"
    output: {mode: text}
`;
const SP500_FILE = "demo-sp500-investor-report.lwir.yaml";
/** The old wording of these messages: any of it in the panel or the hover fails the check. */
const OLD = [/data\//, /#\/properties/, /unsupported JSON Schema keyword/, /unsafe template/, /no step with this id is in scope/];

export async function messagesChecks({ page, wb, workspace, run, helpers }) {
  const { waitForEqual } = helpers;
  const file = (name) => join(workspace, name);
  const oldWording = (text) => OLD.find((re) => re.test(text));

  await run("messages: a schema error names the user's path, sits on the node that is wrong, and its hover does not repeat it", async () => {
    writeFileSync(file(SCHEMA_FILE), SCHEMA_DOC);
    await wb.escape();
    await wb.openFromExplorer(SCHEMA_FILE);
    const lines = SCHEMA_DOC.split("\n");
    const line = lines.findIndex((l) => l.trim() === "email:") + 1;
    const expected = [{
      message: 'LWIR schemas do not support the keyword "format" (in input.schema.properties.email). They may use only type, properties, required, additionalProperties, items, enum, const, anyOf, oneOf, minLength, maxLength, minimum, maximum, minItems, maxItems, propertyNames, description, title, examples.',
      source: "lwir", code: "schema.invalid", line, col: lines[line - 1].indexOf("email") + 1,
    }];
    await wb.showProblems();
    await waitForEqual(page, problemRowsOf, [SCHEMA_FILE, expected], "the Problems panel's row for the schema error (message, line of `email:`, not of `schema:`)");
    const rows = await page.evaluate(problemRowsOf, [SCHEMA_FILE]);
    const bad = rows.map((r) => oldWording(r.message)).find(Boolean);
    if (bad) throw new Error(`the Problems panel still has the old wording ${bad}: ${JSON.stringify(rows)}`);
    // the hover on the squiggle: the message once (VS Code's part), then how to fix it and the rule's page
    await wb.hidePanel();
    await wb.goto(line, expected[0].col + 1);
    const cursor = await wb.cursorBox();
    const hover = await wb.hoverAt(cursor.x + 2, cursor.y + cursor.height / 2, ["input.schema.properties.email", "How to fix"]);
    if (oldWording(hover)) throw new Error(`the hover has the old wording ${oldWording(hover)}: ${hover}`);
    const times = hover.split("LWIR schemas do not support").length - 1;
    if (times !== 1) throw new Error(`the hover says the problem ${times} times: ${hover}`);
    if (hover.includes("The document shape or a JSON Schema is invalid")) throw new Error(`the hover repeats the rule's summary under the message: ${hover}`);
    await wb.screenshot("hover-schema-error.png");
  });

  await run("messages: sp500's {{ input.company }} says input is the workflow's input and the step's own input goes to the model after the prompt", async () => {
    writeFileSync(file(SP500_FILE), readFileSync(join(REALWORLD, SP500_FILE), "utf8"));
    await wb.escape();
    await wb.openFromExplorer(SP500_FILE);
    const text = readFileSync(file(SP500_FILE), "utf8").split("\n");
    const line = text.findIndex((l) => l.includes("{{ input.company }}")) + 1;
    const col = text[line - 1].indexOf("company") + 1;
    await wb.goto(line, col + 2);
    const cursor = await wb.cursorBox();
    const hover = await wb.hoverAt(cursor.x + 2, cursor.y + cursor.height / 2, ["in an expression, input is the workflow's input", 'after the prompt, under "Input:"']);
    if (oldWording(hover)) throw new Error(`the hover has the old wording ${oldWording(hover)}: ${hover}`);
    await wb.showProblems();
    const rows = await page.evaluate(problemRowsOf, [SP500_FILE]);
    const row = rows.find((r) => r.line === line && r.code === "lwir.unknown_property");
    if (!row || !row.message.includes("The \"company\" of this step's own input is not read there")) {
      throw new Error(`no Problems row on line ${line} with the step-input wording: ${JSON.stringify(rows)}`);
    }
    await wb.hidePanel();
    await wb.screenshot("hover-step-input.png");
  });
}
