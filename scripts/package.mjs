// `npm run package`: the .vsix (lwir-tools.vsix) with vsce. The README's links and images are relative (to files
// the .vsix ships, so the extension's page shows them offline); once package.json's `repository` names a public
// home, they are made absolute against it for the Marketplace (--baseContentUrl / --baseImagesUrl, derived here,
// nowhere else). package.json's `vsce` key holds what plain `vsce package` needs too (no dependencies to bundle).
//   node scripts/package.mjs [--out FILE]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { publicHome } from "./bundle.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** vsce package's arguments, writing to `out`. */
export function vscePackageArgs(out, root = ROOT) {
  const home = publicHome(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
  const links = home === "" ? ["--no-rewrite-relative-links"] : ["--baseContentUrl", `${home}/blob/HEAD/`, "--baseImagesUrl", `${home}/raw/HEAD/`];
  return [...links, "--out", out];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--out");
  const out = i > 0 ? process.argv[i + 1] : "lwir-tools.vsix";
  const vsce = join(ROOT, "node_modules", "@vscode", "vsce", "vsce");
  const r = spawnSync(process.execPath, [vsce, "package", ...vscePackageArgs(out)], { cwd: ROOT, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
