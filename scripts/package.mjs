// The README and changelog that go into the .vsix, written by `vscode:prepublish` (after the production build)
// to dist/package/, where package.json's `vsce` key (readmePath, changelogPath) points plain `vsce package`.
//
// Why not README.md as it is: vsce (3.x) refuses a relative inline link or image in them unless it can make it
// absolute against a repository it recognises (GitHub/GitLab) or a --baseContentUrl, and the flag that turns
// this off (--no-rewrite-relative-links) cannot be set from package.json (the CLI defaults it to true). The
// project has no public home yet, and nothing shipped may name a stand-in for one (`allowMissingRepository` in
// the `vsce` key says so, instead of a question at the terminal). So, from README.md and CHANGELOG.md:
// - while package.json has no `repository`: each relative link becomes a reference link to the same path (the
//   targets ship in the .vsix: .vscodeignore; CHANGELOG.md and LICENSE under vsce's names for them); vsce leaves
//   reference links alone. A relative image becomes a link to the image file: vsce takes only HTTPS images.
//   They resolve inside the installed extension's folder (its readme.md opened in the Markdown preview). VS Code's
//   extension page itself (1.9x) follows only http(s) and mailto links and loads only https/data images, so
//   relative targets do nothing there, whatever the packaging.
// - once `repository` names the home (the one place that does): links and images are made absolute against it
//   (blob/HEAD for pages, raw/HEAD for images), for the Marketplace.
// README.md itself keeps its relative links and images (GitHub, a clone).
//   node scripts/package.mjs        writes dist/package/README.md and dist/package/CHANGELOG.md
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { publicHome } from "./bundle.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PACKAGED_DOCS = { "README.md": "dist/package/README.md", "CHANGELOG.md": "dist/package/CHANGELOG.md" };

// Files vsce stores under names of its own in the .vsix (VS Code shows them in tabs of their own).
const RENAMED = { "CHANGELOG.md": "changelog.md", LICENSE: "LICENSE.txt" };
const relative = (target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#");

/**
 * `markdown` as it goes into the .vsix: relative links and images as described above, `home` the public home
 * ("" while there is none). Text in code (fenced blocks, code spans) is left as it is.
 */
export function packagedMarkdown(markdown, home) {
  const refs = new Map();
  const ref = (target) => {
    if (!refs.has(target)) refs.set(target, `lwir-${refs.size + 1}`);
    return refs.get(target);
  };
  const link = (isImage, text, target, inLink) => {
    if (!relative(target)) return `${isImage}[${text}](${target})`;
    if (home !== "") return `${isImage}[${text}](${home}/${isImage ? "raw" : "blob"}/HEAD/${target.replace(/^\.\//, "")})`;
    // a linked screenshot: its words, in the link to where it leads (a link holds no link)
    if (isImage && inLink) return `Image: ${text}`;
    return `[${isImage ? `Image: ${text}` : text}][${ref(RENAMED[target] ?? target)}]`;
  };
  // fenced code blocks and code spans are kept apart (odd parts), the rest is rewritten
  const parts = markdown.split(/(^```[^\n]*\n[\s\S]*?^```[^\n]*$|`[^`\n]+`)/m);
  // an image inside a link's text (a linked screenshot) is rewritten as well
  const rewrite = (prose, inLink = false) => prose.replace(/(!?)\[((?:[^\][]|\[[^\][]*\])*)\]\(([^)\s]+)\)/g,
    (_, isImage, text, target) => link(isImage, rewrite(text, true), target, inLink));
  const body = parts.map((part, i) => (i % 2 === 1 ? part : rewrite(part))).join("");
  if (refs.size === 0) return body;
  return `${body.replace(/\n*$/, "\n")}\n${[...refs].map(([target, name]) => `[${name}]: ${target}`).join("\n")}\n`;
}

/** Writes the packaged README and changelog for the project in `root`. */
export function writePackagedDocs(root = ROOT) {
  const home = publicHome(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
  for (const [source, out] of Object.entries(PACKAGED_DOCS)) {
    mkdirSync(dirname(join(root, out)), { recursive: true });
    writeFileSync(join(root, out), packagedMarkdown(readFileSync(join(root, source), "utf8"), home));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writePackagedDocs();
