// Bundles the CLI, the language server (Node and web worker) and the extension (Node and browser)
// and the graph view's webview script into dist/ with esbuild. Entries whose source does not exist yet are skipped.
//   node scripts/build.mjs                development: readable bundles with linked source maps (npm run build)
//   node scripts/build.mjs --production   what ships: minified, no source maps (vsce runs it as vscode:prepublish);
//                                         the .vsix leaves .map files out, so a linked map would only dangle
import { build } from "esbuild";
import { existsSync, rmSync } from "node:fs";
import { defines, MCP_BUNDLE, mcpApart, noSchemaCompiler } from "./bundle.mjs";

const production = process.argv.includes("--production");
// Version, public home (package.json `repository`, none today), rule page base and the rule pages (SARIF's help).
const define = defines();
// A clean folder: no map or bundle of an earlier build lingers beside the new ones.
rmSync("dist", { recursive: true, force: true });
const node = { bundle: true, platform: "node", format: "cjs", target: "node20", mainFields: ["module", "main"], logLevel: "warning",
  sourcemap: !production, minify: production,
  define };
const browser = { ...node, platform: "browser", target: "es2022", mainFields: ["browser", "module", "main"],
  conditions: ["browser"], define: { ...node.define, "process.env.NODE_ENV": '"production"' } };
// Node built-ins that vscode-languageserver and vscode-jsonrpc require at start-up but use only for pipes,
// sockets, random pipe names and resolving global modules (child_process, net, crypto): loading them
// costs the server's cold start a few ms of its main thread for nothing over stdio or IPC. In the server
// bundle they become a stand-in that loads the real module on first use (docs/benchmark.md, "Start-up").
const LAZY_BUILTINS = /^(node:)?(child_process|net|crypto)$/;
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    b.onResolve({ filter: LAZY_BUILTINS }, (args) =>
      args.importer.includes("node_modules") ? { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" } : undefined);
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      loader: "js",
      contents: `let real; const load = () => (real ??= require("node:${args.path}"));
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(load(), key); return d && { ...d, configurable: true }; },
});`,
    }));
  },
};
const entries = [
  { ...node, entryPoints: ["server/src/cli.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" }, plugins: [mcpApart] },
  // `lwir mcp`, loaded by dist/cli.js from beside it only for that command (scripts/bundle.mjs, mcpApart)
  { ...node, entryPoints: ["server/src/mcpMain.ts"], outfile: `dist/${MCP_BUNDLE}`, plugins: [noSchemaCompiler] },
  { ...node, entryPoints: ["server/src/serverLoader.ts"], outfile: "dist/server.js" },
  // The rule pages and the authoring reference (lwir/agentTool's explain) are read from docs/ beside dist/, not
  // carried in the server's bundle (server/src/cli/rulePages.ts).
  { ...node, entryPoints: ["server/src/node.ts"], outfile: "dist/server-main.js", plugins: [lazyBuiltins],
    define: { ...define, __LWIR_RULE_PAGES__: "undefined", __LWIR_REFERENCE__: "undefined" } },
  // The Node server's graph layout thread (server/src/graph/workerLayouter.ts loads it from beside server-main.js).
  { ...node, entryPoints: ["server/src/graphLayoutWorker.ts"], outfile: "dist/graph-layout-worker.js" },
  { ...node, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
  { ...browser, entryPoints: ["server/src/browser.ts"], outfile: "dist/web/server.js", format: "iife" },
  { ...browser, entryPoints: ["client/src/browserExtension.ts"], outfile: "dist/web/extension.js", external: ["vscode"] },
  // The graph view's page script (client/src/graphPanel.ts loads it; localResourceRoots is dist/webview).
  { ...browser, entryPoints: ["webview/graph/main.ts"], outfile: "dist/webview/graph.js", format: "iife" },
];
await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build(e)));
