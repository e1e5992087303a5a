// The least a cold start can cost (bench/workers/coldstart.mjs, the "fresh process" series): a new Node
// process that loads our analysis alone (bench/tmp/ours.cjs: no protocol, no server) and turns one text
// into diagnostics once, then says so on stdout. Everything our server adds on top of this is its own
// start-up; this much is V8 compiling and running our code for the first time.
//   node first-analysis.cjs FILE json|yaml
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const ours = require(join(__dirname, "..", "tmp", "ours.cjs"));
const [file, format] = process.argv.slice(2);
const analysis = ours.analyzeText(readFileSync(file, "utf8"), format);
const diagnostics = ours.toDiagnostics(analysis, { uri: `file://${file}`, relatedInformation: true });
process.stdout.write(`${diagnostics.filter((d) => d.severity === 1).length}\n`);
