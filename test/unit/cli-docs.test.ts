// docs/cli.md agrees with the CLI: its synopsis (the block under the title) names every option the CLI
// accepts, as `lwir --help` lists them and as cli/args.ts spells them; the options table documents each;
// and the README's settings table gives each setting the default package.json declares.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const cliDoc = readFileSync("docs/cli.md", "utf8");

/** The options the CLI accepts: `lwir --help`'s option lines, and every `--x` / `-x` the argument parser names. */
function acceptedOptions(): string[] {
  const help = spawnSync(process.execPath, ["dist/cli.js", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0, help.stderr);
  const fromHelp = [...help.stdout.matchAll(/^ {2}((?:-\w, )?--?[\w-]+)/gm)].flatMap((m) => m[1].split(", "));
  const fromParser = [...readFileSync("server/src/cli/args.ts", "utf8").matchAll(/"(--?[a-z][\w-]*)"/g)].map((m) => m[1]);
  assert.ok(fromHelp.length >= 10, `--help lists options: ${fromHelp.join(" ")}`);
  return [...new Set([...fromHelp, ...fromParser])].sort();
}

test("the synopsis of docs/cli.md names every option the CLI accepts", () => {
  const synopsis = /^# [^\n]+\n[\s\S]*?```\n([\s\S]*?)```/.exec(cliDoc)?.[1] ?? "";
  assert.match(synopsis, /^lwir validate /m);
  const named = new Set([...synopsis.matchAll(/(?<![\w-])(--?[a-z][\w-]*)/g)].map((m) => m[1]));
  const missing = acceptedOptions().filter((o) => o !== "--" && !named.has(o));
  assert.deepEqual(missing, [], "options missing from the synopsis");
  // and every format of --format
  for (const format of ["text", "json", "sarif", "github"]) assert.match(synopsis, new RegExp(`--format [^\\n]*\\b${format}\\b`));
});

test("the options table of docs/cli.md has a row for every option of lwir validate", () => {
  const table = cliDoc.slice(cliDoc.indexOf("## Options"), cliDoc.indexOf("## Exit status"));
  const firstCells = [...table.matchAll(/^\| ([^|]*(?:\\\|[^|]*)*)\|/gm)].map((m) => m[1]);
  const rows = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`(--?[a-z][\w-]*)/g)].map((m) => m[1])));
  // lwir graph's and lwir eval's own options are described in their sections
  const otherCommands = new Set(["-o", "--output", "--context", "--jsonl"]);
  const missing = acceptedOptions().filter((o) => !otherCommands.has(o) && !rows.has(o));
  assert.deepEqual(missing, [], "options without a row in the table");
});

test("the README's settings table gives the defaults package.json declares", () => {
  const readme = readFileSync("README.md", "utf8");
  const settings = (JSON.parse(readFileSync("package.json", "utf8")) as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } }).contributes.configuration.properties;
  const rows = [...readme.matchAll(/^\| `(lwir\.[\w.]+)` \| `([^`]+)`/gm)];
  assert.ok(rows.length >= 8);
  for (const [, name, shown] of rows) {
    assert.ok(name in settings, `${name} is not a setting`);
    assert.deepEqual(JSON.parse(shown), settings[name].default, name);
  }
});
