// What both entries (web.ts, node.ts) do once mocha is set up and the tests are registered.
import { serveWorkspaceFolder } from "./folder";

interface Runnable { run(done: (failures: number) => void): unknown }

export function runSuite(mocha: Runnable): Promise<void> {
  // before any test asks for a workspace file
  serveWorkspaceFolder();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
