// The floor of the "CLI on many small files" series, run as its own process (start-up included, like the
// CLI): walk the folder, and for every *.lwir.json / *.lwir.yaml / *.lwir.yml read it and parse it without
// positions (JSON.parse, or the `yaml` package's parse). Prints the number of files read.
//   node bench/workers/cli-many-floor.mjs FOLDER
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

let files = 0;
function walk(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.lwir\.(json|ya?ml)$/.test(entry.name)) {
      const text = readFileSync(path, "utf8");
      try {
        if (entry.name.endsWith(".json")) JSON.parse(text);
        else parse(text, { logLevel: "silent" });
      } catch {
        // unparsable cases are part of the corpus; the floor only pays for trying
      }
      files++;
    }
  }
}
walk(process.argv[2]);
process.stdout.write(`${files}\n`);
