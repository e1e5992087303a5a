// Mocha for the web worker extension host: mocha's browser build, which defines the global `mocha`. Imported
// by web.ts before the tests, so `suite` and `test` exist when their modules run.
import "mocha/mocha.js";
import { LineReporter } from "./reporter";

mocha.setup({ ui: "tdd", reporter: LineReporter as unknown as Mocha.ReporterConstructor, timeout: 60_000 });
