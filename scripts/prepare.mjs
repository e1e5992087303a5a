// npm's `prepare`: runs after `npm install` in a checkout and before `npm pack`. It builds dist/ so the
// `lwir` bin works when this repository itself is installed as a package (pre-commit's node hooks,
// `npm install -g <git url>`). In an installed package (no sources) or without the dev dependencies
// there is nothing to build, and that is not an error.
import { existsSync } from "node:fs";

if (!existsSync("server/src/cli.ts")) process.exit(0);
try {
  await import("esbuild");
} catch {
  console.warn("lwir: esbuild is not installed (dev dependencies omitted?), dist/ not built");
  process.exit(0);
}
await import("./build.mjs");
