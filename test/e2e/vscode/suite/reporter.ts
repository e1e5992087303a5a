// A mocha reporter for the runners (run.mjs, electron.mjs): one line per event, "LWIR-E2E <json>", on the
// console. VS Code forwards the extension host's console to the runner's stdout (test-web through the
// page, test-electron through the process), where each line becomes one check. The plan line lists every
// test first, so a runner can tell a test that never reported (a crash, a hang) from one that passed.
export const MARKER = "LWIR-E2E";

export type ReportLine =
  | { event: "plan"; tests: string[] }
  | { event: "result"; title: string; state: "passed" | "failed" | "pending"; ms: number; error?: string }
  | { event: "end"; passes: number; failures: number; pending: number };

function emit(line: ReportLine): void {
  console.log(`${MARKER} ${JSON.stringify(line)}`);
}

function allTests(suite: Mocha.Suite): string[] {
  return [...suite.tests.map((t) => t.fullTitle()), ...suite.suites.flatMap(allTests)];
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    // the stack of an assertion is noise in a check result; keep it for unexpected errors
    const stack = err.stack && !err.message.includes("\nexpected:") ? `\n${err.stack.split("\n").slice(1, 6).join("\n")}` : "";
    return `${err.message}${stack}`;
  }
  return String(err);
}

export class LineReporter {
  constructor(runner: Mocha.Runner) {
    let passes = 0;
    let failures = 0;
    let pending = 0;
    runner.once("start", () => emit({ event: "plan", tests: allTests(runner.suite) }));
    runner.on("pass", (test: Mocha.Test) => {
      passes++;
      emit({ event: "result", title: test.fullTitle(), state: "passed", ms: test.duration ?? 0 });
    });
    // also hooks: a failed hook is reported under its own title ("… "before each" hook for …")
    runner.on("fail", (runnable: Mocha.Runnable, err: unknown) => {
      failures++;
      emit({ event: "result", title: runnable.fullTitle(), state: "failed", ms: runnable.duration ?? 0, error: errorText(err) });
    });
    runner.on("pending", (test: Mocha.Test) => {
      pending++;
      emit({ event: "result", title: test.fullTitle(), state: "pending", ms: 0 });
    });
    runner.once("end", () => emit({ event: "end", passes, failures, pending }));
  }
}
