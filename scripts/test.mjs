// Runs every compiled test file (out/test/**/*.test.js) with node's test runner; Node 20's --test
// does not expand glob patterns itself.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function find(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? find(full) : name.endsWith(".test.js") ? [full] : [];
  });
}
const files = find("out/test");
const r = spawnSync(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...process.argv.slice(2), ...files], { stdio: "inherit" });
process.exit(r.status ?? 1);
