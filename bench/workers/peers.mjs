// Series 4 in process: the peers a user would pick instead, with schemas/lwir.schema.json (the product schema).
//   JSON: vscode-json-languageservice, parseJSONDocument + doValidation (schema validation only).
//   YAML: yaml-language-server's language service, doValidation; and its doComplete right after typing
//         `.` in `{{ steps` (a new version, so it parses first), like our completion series.
// Every iteration validates a new text under a new URI, so no per-document cache can answer.
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FLOOR, args, completionSite, emit, interleave, positionAt, readWorkload, require, summarize, timed, timedSync, variant } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const schemaPath = join(here, "..", "..", "schemas", "lwir.schema.json");
const schemaUri = pathToFileURL(schemaPath).href;
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const a = args();
const base = readWorkload(a.file);
const floor = FLOOR[a.format];
const out = [];
let problems = 0;

if (a.format === "json") {
  const json = require("vscode-json-languageservice");
  const service = json.getLanguageService({ schemaRequestService: async () => JSON.stringify(schema) });
  service.configure({ validate: true, allowComments: false, schemas: [{ uri: schemaUri, fileMatch: ["*.lwir.json"], schema }] });
  let text = base;
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      validate: (i) => {
        text = variant(base, i);
        const doc = TextDocument.create(`file:///bench/v${i}.lwir.json`, "json", 1, text);
        return timed(async () => {
          const parsed = service.parseJSONDocument(doc);
          problems = (await service.doValidation(doc, parsed, { schemaValidation: "error" })).length;
        });
      },
    },
    floor: () => timedSync(() => floor.run(text)),
  });
  out.push(summarize("parse + schema validation", "vscode-json-languageservice", "json", a.steps, results.validate, floor.name, floorSamples, { diagnostics: problems }));
} else {
  const yls = require("yaml-language-server");
  const service = yls.getLanguageService({
    schemaRequestService: async () => JSON.stringify(schema),
    workspaceContext: { resolveRelativePath: (relativePath, resource) => new URL(relativePath, resource).toString() },
  });
  service.configure({ validate: true, completion: true, hover: false, format: false, isKubernetes: false,
    schemas: [{ uri: schemaUri, fileMatch: ["*.lwir.yaml"], schema }] });
  let text = base;
  {
    const { results, floorSamples } = await interleave({
      warmup: a.warmup,
      iterations: a.iterations,
      subjects: {
        validate: (i) => {
          text = variant(base, i);
          const doc = TextDocument.create(`file:///bench/v${i}.lwir.yaml`, "yaml", 1, text);
          return timed(async () => {
            problems = (await service.doValidation(doc, false)).length;
          });
        },
      },
      floor: () => timedSync(() => floor.run(text)),
    });
    out.push(summarize("doValidation (parse + schema validation)", "yaml-language-server (API)", "yaml", a.steps, results.validate, floor.name, floorSamples, { diagnostics: problems }));
  }
  {
    const site = completionSite(base, "yaml");
    const typed = site.text.slice(0, site.offset) + "." + site.text.slice(site.offset);
    const position = positionAt(typed, site.offset + 1);
    let items = 0;
    const { results, floorSamples } = await interleave({
      warmup: a.warmup,
      iterations: a.iterations,
      subjects: {
        complete: (i) => {
          // a version it has not parsed yet, as right after an edit
          const doc = TextDocument.create(`file:///bench/c.lwir.yaml`, "yaml", i + 2, typed);
          return timed(async () => {
            items = (await service.doComplete(doc, position, false)).items.length;
          });
        },
      },
      floor: () => timedSync(() => floor.run(typed)),
    });
    out.push(summarize("completion right after an edit", "yaml-language-server (API)", "yaml", a.steps, results.complete, floor.name, floorSamples, { items }));
  }
}
emit(out);
