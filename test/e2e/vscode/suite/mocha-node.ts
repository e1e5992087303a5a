// Mocha for the desktop extension host (Node): the package itself, required from node_modules at run time.
// Imported by node.ts before the tests: "pre-require" defines the TDD globals (`suite`, `test`, …) the test
// modules call when they run, which a bundle does at load rather than through mocha's file loader.
import Mocha from "mocha";
import { LineReporter } from "./reporter";

export const mocha = new Mocha({ ui: "tdd", reporter: LineReporter as unknown as Mocha.ReporterConstructor, timeout: 60_000 });
mocha.suite.emit("pre-require", globalThis, "lwir-e2e", mocha);
