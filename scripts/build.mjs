// Bundles the CLI, the language server and the extension into dist/ with esbuild.
import { build } from "esbuild";
import { existsSync } from "node:fs";

const common = { bundle: true, platform: "node", format: "cjs", target: "node20", sourcemap: true, logLevel: "warning" };
const entries = [
  { entryPoints: ["server/src/cli.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  { entryPoints: ["server/src/node.ts"], outfile: "dist/server.js" },
  { entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
];
await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build({ ...common, ...e })));
