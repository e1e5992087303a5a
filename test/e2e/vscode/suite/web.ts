// Entry of the web bundle (extensionTestsPath for @vscode/test-web): mocha first, then every test module
// explicitly (a bundle has no file discovery), then `run`, which VS Code calls.
import "./mocha-web";
import "./tests";
import { runSuite } from "./start";

export function run(): Promise<void> {
  return runSuite(mocha);
}
