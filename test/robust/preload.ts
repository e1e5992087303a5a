// Preloaded (`node --require`) into the language server or the CLI by test/robust: replaces every way out of
// the process (outbound network, child processes, vm evaluation, worker threads) with recording stubs, and
// records the process's peak RSS when it exits. Nothing here is part of the shipped code.
//
//   LWIR_ESCAPE_LOG  file that gets one JSON line per attempt: {"api": "net.connect", "detail": "..."}; the
//                    file next to it with ".loaded" appended gets the pid of each process the stubs are in
//   LWIR_RSS_LOG     file that gets the peak resident set size in bytes, at exit
//
// A stub records the attempt and then throws, so no attempt can succeed by accident.
import { appendFileSync, writeFileSync } from "node:fs";
// `import x = require()`: the modules' own export objects (the ones every other require() returns), not the
// copies `import * as` makes, so patching them patches the modules.
import childProcess = require("node:child_process");
import dgram = require("node:dgram");
import dns = require("node:dns");
import http = require("node:http");
import http2 = require("node:http2");
import https = require("node:https");
import net = require("node:net");
import tls = require("node:tls");
import vm = require("node:vm");
import workerThreads = require("node:worker_threads");

const escapeLog = process.env.LWIR_ESCAPE_LOG;
const rssLog = process.env.LWIR_RSS_LOG;

function describeArgs(args: unknown[]): string {
  try {
    return JSON.stringify(args, (_k, v: unknown) => (typeof v === "function" ? "[function]" : v)).slice(0, 300);
  } catch {
    return String(args).slice(0, 300);
  }
}

function stub(api: string): (...args: unknown[]) => never {
  // a plain function, not an arrow: `new Worker(…)` must reach it too
  return function recordingStub(...args: unknown[]): never {
    if (escapeLog) appendFileSync(escapeLog, JSON.stringify({ api, detail: describeArgs(args) }) + "\n");
    throw new Error(`${api} is disabled in this test (a recording stub replaced it)`);
  };
}

/** Replaces `target[name]` by a stub. */
function replace(target: object, name: string, api: string): void {
  Object.defineProperty(target, name, { value: stub(api), writable: true, configurable: true, enumerable: true });
}

if (escapeLog) {
  // proof that the stubs were in place in this process (the tests check the line is there)
  appendFileSync(`${escapeLog}.loaded`, `${process.pid}\n`);
  const modules: Array<[object, string, string[]]> = [
    [net, "net", ["connect", "createConnection"]],
    [tls, "tls", ["connect"]],
    [http, "http", ["request", "get"]],
    [https, "https", ["request", "get"]],
    [http2, "http2", ["connect"]],
    [dgram, "dgram", ["createSocket"]],
    [dns, "dns", ["lookup", "resolve", "resolve4", "resolve6", "resolveAny"]],
    [dns.promises, "dns.promises", ["lookup", "resolve", "resolve4", "resolve6", "resolveAny"]],
    [childProcess, "child_process", ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]],
    [vm, "vm", ["runInContext", "runInNewContext", "runInThisContext", "compileFunction"]],
  ];
  for (const [module, prefix, names] of modules) for (const name of names) replace(module, name, `${prefix}.${name}`);
  replace(net.Socket.prototype, "connect", "net.Socket#connect");
  replace(vm, "Script", "vm.Script");
  replace(workerThreads, "Worker", "worker_threads.Worker");
  replace(globalThis, "fetch", "fetch");
  if ("WebSocket" in globalThis) replace(globalThis, "WebSocket", "WebSocket");
}

if (rssLog) {
  process.on("exit", () => {
    // resourceUsage().maxRSS is in KiB
    writeFileSync(rssLog, String(process.resourceUsage().maxRSS * 1024));
  });
}
