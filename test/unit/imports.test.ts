// What the sources import. Every package a bundle loads is one of BUNDLED, declared in package.json's
// devDependencies (the bundles inline them, so the package itself has no dependency: pre-commit and
// `npm install -g` install nothing with it) (a
// package that is only there because another one depends on it can vanish or change version under us),
// and every package the tests, scripts and benchmark load is declared at least as a devDependency.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** The libraries the bundles (dist/, bundle/) inline: the code the extension, the server and the CLI run. */
const BUNDLED = ["@dagrejs/dagre", "@modelcontextprotocol/sdk", "ajv", "diff", "fdir", "jsonc-parser", "picomatch", "vscode-languageclient", "vscode-languageserver",
  "vscode-languageserver-textdocument", "vscode-languageserver-types", "yaml", "zod"];
const dependencies = new Set(BUNDLED.filter((name) => name in manifest.devDependencies));
const devDependencies = new Set(Object.keys(manifest.devDependencies));

interface Import {
  file: string;
  specifier: string;
  /** `import type` / `export type`: erased when compiled, so it needs only the types at build time. */
  typeOnly: boolean;
}

/** Source files under `dir` (TypeScript and JavaScript), skipping test data and bench/tmp (ignored by git: the benchmark's bundles and copies). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    // bench/tmp holds what npm run bench builds (bundles with their dependencies' own requires inside)
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "corpus" || name === "fixtures" || full === join("bench", "tmp") ? [] : sourceFiles(full);
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The module specifiers of a file: import and export declarations, import(), require() and `import x = require()`. */
function importsOf(file: string, text = readFileSync(file, "utf8")): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ file, specifier: node.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative paths. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Why an import is not covered by package.json, or undefined when it is. `vscode` is the editor's own module. */
function undeclared(imp: Import, bundled: boolean): string | undefined {
  const name = packageOf(imp.specifier);
  if (name === undefined || imp.specifier.startsWith("node:") || name === "vscode") return undefined;
  const typesName = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
  if (dependencies.has(name)) return undefined;
  const declaredForDevelopment = devDependencies.has(name) || devDependencies.has(typesName);
  // A bundle may use a devDependency's types (erased when compiled), never its code.
  if (declaredForDevelopment && (!bundled || imp.typeOnly)) return undefined;
  return `${relative(".", imp.file)}: ${imp.specifier} (${declaredForDevelopment ? "only a devDependency" : "not in package.json"})`;
}

describe("declared dependencies", () => {
  test("every package server/src, client/src and webview load is in dependencies (types alone may be devDependencies)", () => {
    const imports = ["server/src", "client/src", "webview"].flatMap(sourceFiles).flatMap((f) => importsOf(f));
    assert.ok(imports.some((i) => i.specifier === "vscode-languageserver-types"), "the scan sees the bundles' imports");
    assert.deepEqual(imports.map((i) => undeclared(i, true)).filter((u) => u !== undefined), []);
  });

  test("every package the tests, scripts and benchmark load is declared", () => {
    const files = ["test", "scripts", "bench"].flatMap(sourceFiles);
    assert.ok(files.length > 50, `${files.length} files`);
    const imports = files.flatMap((f) => importsOf(f));
    assert.deepEqual(imports.map((i) => undeclared(i, false)).filter((u) => u !== undefined), []);
  });

  test("the check finds undeclared packages, dev-only code in a bundle, and every form of import", () => {
    const probe = [
      'import { a } from "left-pad";',
      'import type { B } from "sarif";',
      'import { c } from "@vscode/vsce/out/x";',
      'export * from "@scope/thing";',
      'const d = require("fast-check");',
      'const e = await import("node:fs");',
      'import * as vscode from "vscode";',
      'import { f } from "./local";',
      'import g = require("yaml");',
      'type H = import("mocha").Suite;',
      "// import x from \"in-a-comment\"",
    ].join("\n");
    const imports = importsOf("probe.ts", probe);
    assert.deepEqual(imports.map((i) => [i.specifier, i.typeOnly]), [
      ["left-pad", false], ["sarif", true], ["@vscode/vsce/out/x", false], ["@scope/thing", false], ["fast-check", false],
      ["node:fs", false], ["vscode", false], ["./local", false], ["yaml", false], ["mocha", true],
    ]);
    assert.deepEqual(imports.map((i) => undeclared(i, true)).filter((u) => u !== undefined), [
      "probe.ts: left-pad (not in package.json)",
      "probe.ts: @vscode/vsce/out/x (only a devDependency)",
      "probe.ts: @scope/thing (not in package.json)",
      "probe.ts: fast-check (only a devDependency)",
    ]);
    assert.deepEqual(imports.map((i) => undeclared(i, false)).filter((u) => u !== undefined), [
      "probe.ts: left-pad (not in package.json)",
      "probe.ts: @scope/thing (not in package.json)",
    ]);
  });
});

describe("the client and the server share one protocol module", () => {
  const PROTOCOL = "server/src/protocol.ts";

  const localImports = (dir: string) => sourceFiles(dir).flatMap((f) => importsOf(f))
    .filter((i) => i.specifier.startsWith("."))
    .map((i) => ({ ...i, target: relative(".", resolve(dirname(i.file), i.specifier)) }));

  test("client/src takes nothing from the server but server/src/protocol.ts (never server/src/service/), and the graph view's pure drawing", () => {
    const outside = localImports("client/src").filter((i) => !i.target.startsWith(join("client", "src")));
    assert.ok(outside.some((i) => i.target === PROTOCOL.replace(/\.ts$/, "")), "the client imports the protocol module");
    // decode.ts: the one reading of bytes as the runtime reads them (pure, no dependency), which the browser
    // client uses for the workspace files it hands the server, so both builds skip and warn alike
    const DECODE = join("server", "src", "document", "decode");
    assert.deepEqual(outside.filter((i) => i.target !== PROTOCOL.replace(/\.ts$/, "") && i.target !== DECODE && !i.target.startsWith(join("webview", "graph")))
      .map((i) => `${relative(".", i.file)}: ${i.specifier}`), []);
  });

  test("the webview takes only types from the server (it draws what the server computed), and the text of a parallel box", () => {
    const fromServer = localImports("webview").filter((i) => i.target.startsWith(join("server", "src")));
    assert.ok(fromServer.length > 0, "the scan sees the webview's imports of the graph types");
    // labels.ts: pure string functions (no dagre, no analysis), shared so that the layout sizes a parallel
    // step's box by the very lines the view draws in it
    const LABELS = join("server", "src", "graph", "labels");
    assert.deepEqual(fromServer.filter((i) => !i.typeOnly && i.target !== LABELS).map((i) => `${relative(".", i.file)}: ${i.specifier}`), []);
  });

  test("the protocol module is plain data: it imports types only, so the client bundles none of the server", () => {
    const imports = importsOf(PROTOCOL);
    assert.deepEqual(imports.filter((i) => !i.typeOnly).map((i) => i.specifier), []);
    // the graph view's types, and the answers of lwir/dryRun and lwir/previewPrompt (the dry run's types)
    assert.deepEqual(imports.map((i) => i.specifier), ["./graph/layout", "./graph/model", "./run/overlay", "./run/preview", "./run/overlay"]);
  });
});

describe("the dry run's layer (server/src/run/)", () => {
  const local = (dir: string) => sourceFiles(dir).flatMap((f) => importsOf(f)).map((i) => ({ ...i, target: relative(".", resolve(dirname(i.file), i.specifier)) }));

  test("run/ is pure: it imports lwir/ and itself only, no package and no node: module", () => {
    const imports = local(join("server", "src", "run"));
    assert.ok(imports.some((i) => i.target.startsWith(join("server", "src", "lwir"))), "the scan sees run/'s imports of lwir/");
    const allowed = [join("server", "src", "run"), join("server", "src", "lwir"), join("server", "src", "document")];
    assert.deepEqual(imports.filter((i) => !i.specifier.startsWith(".") || !allowed.some((a) => i.target.startsWith(a)))
      .map((i) => `${relative(".", i.file)}: ${i.specifier}`), []);
  });

  test("lwir/ never imports run/ (the format knows nothing of running it)", () => {
    const imports = local(join("server", "src", "lwir"));
    assert.deepEqual(imports.filter((i) => i.target.startsWith(join("server", "src", "run"))).map((i) => `${relative(".", i.file)}: ${i.specifier}`), []);
  });
});

describe("lwir mcp is a thin adapter in a room of its own (server/src/mcp/)", () => {
  const MCP = join("server", "src", "mcp");
  const local = (file: string) => importsOf(file).filter((i) => i.specifier.startsWith("."))
    .map((i) => ({ ...i, target: relative(".", resolve(dirname(i.file), i.specifier)) }));

  test("it takes the checks, fixes, graph and completion from the CLI and the service, never from the language server's wiring", () => {
    const files = sourceFiles(MCP);
    assert.ok(files.length >= 2, "server/src/mcp/ holds the adapter");
    const ROOMS = ["cli", "service", "lwir", "document", "graph", "mcp"].map((room) => join("server", "src", room) + sep);
    const outside = files.flatMap(local).filter((i) => !ROOMS.some((room) => i.target.startsWith(room)) && !/package\.json$|schemas[\\/]lwir\.schema\.json$|server[\\/]src[\\/]protocol$/.test(i.target));
    assert.deepEqual(outside.map((i) => `${relative(".", i.file)}: ${i.specifier}`), []);
    const packages = new Set(files.flatMap((f) => importsOf(f)).map((i) => packageOf(i.specifier)).filter((p) => p !== undefined && !p.startsWith("node:")));
    assert.deepEqual([...packages].sort(), ["@modelcontextprotocol/sdk", "vscode-languageserver-types", "zod"]);
  });

  test("only lwir mcp's entry loads it (and the Node language server its answers for VS Code's tools), and no layer below it knows the protocol's SDK", () => {
    const all = ["server/src", "client/src"].flatMap(sourceFiles).filter((f) => !f.startsWith(MCP + sep));
    const loads = all.flatMap((f) => local(f).filter((i) => i.target.startsWith(MCP + sep)).map((i) => `${relative(".", f)} → ${relative(MCP, i.target)}`));
    assert.deepEqual([...new Set(loads)].sort(), [`${join("server", "src", "mcpMain.ts")} → server`, `${join("server", "src", "node.ts")} → languageServer`]);
    // lwir mcp's entry (its own bundle) is loaded by the CLI's entry alone
    const entry = all.flatMap((f) => local(f).filter((i) => i.target === join("server", "src", "mcpMain")).map(() => relative(".", f)));
    assert.deepEqual([...new Set(entry)], [join("server", "src", "cli.ts")]);
    // The language server's bundle stays without the SDK: the answers module loads neither it nor zod.
    for (const f of ["languageServer.ts", "tools.ts"]) {
      assert.deepEqual(importsOf(join(MCP, f)).filter((i) => ["@modelcontextprotocol/sdk", "zod"].includes(packageOf(i.specifier) ?? "")).map((i) => i.specifier), [], f);
    }
    const sdk = all.filter((f) => importsOf(f).some((i) => ["@modelcontextprotocol/sdk", "zod"].includes(packageOf(i.specifier) ?? "")));
    assert.deepEqual(sdk.map((f) => relative(".", f)), []);
  });
});

describe("layers (docs/architecture.md): the format, then the run-time room, then the service", () => {
  const local = (dir: string) => sourceFiles(dir).flatMap((f) => importsOf(f))
    .filter((i) => i.specifier.startsWith("."))
    .map((i) => ({ from: relative(".", i.file), target: relative(".", resolve(dirname(i.file), i.specifier)) }));
  const inside = (target: string, dir: string) => target.startsWith(join("server", "src", dir) + "/") || target === join("server", "src", dir);

  test("server/src/lwir/ imports nothing of the other layers", () => {
    const out = local(join("server", "src", "lwir")).filter((i) => !inside(i.target, "lwir"));
    assert.deepEqual(out.map((i) => `${i.from}: ${i.target}`), []);
  });

  test("server/src/run/ imports only itself, lwir/ and document/ (never service/, lsp/, the CLI)", () => {
    const imports = local(join("server", "src", "run"));
    assert.ok(imports.some((i) => inside(i.target, "lwir")), "the scan sees run/ import lwir/");
    assert.deepEqual(imports.filter((i) => !["run", "lwir", "document"].some((d) => inside(i.target, d))).map((i) => `${i.from}: ${i.target}`), []);
  });

  test("service/ may call run/ (the run-time checks)", () => {
    assert.ok(local(join("server", "src", "service")).some((i) => inside(i.target, "run")));
  });
});
