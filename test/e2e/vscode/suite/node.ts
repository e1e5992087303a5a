// Entry of the Node bundle (extensionTestsPath for @vscode/test-electron): the same tests as web.ts.
import { mocha } from "./mocha-node";
import "./tests";
import { runSuite } from "./start";

export function run(): Promise<void> {
  return runSuite(mocha);
}
