// The language server in Node: `node dist/server.js --stdio` (any editor), or IPC / pipes / sockets
// as vscode-languageserver picks from the arguments (`--node-ipc` when VS Code starts it).
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startServer } from "./server";

const connection = createConnection(ProposedFeatures.all);

// A bug must cost one answer, not the server: log and keep serving. (Handlers are wrapped as well;
// these catch what escapes them, e.g. errors thrown from timers.)
process.on("uncaughtException", (error) => report("uncaught exception", error));
process.on("unhandledRejection", (reason) => report("unhandled rejection", reason));

function report(what: string, error: unknown): void {
  try {
    connection.console.error(`lwir: ${what}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  } catch {
    // The connection itself is gone (the editor closed the pipe): nothing left to tell.
  }
}

// Tests only (test/robust): with LWIR_DEBUG_MEMORY=1 in the environment, a hidden request reports this
// process's memory, after a full garbage collection when the server was started with --expose-gc. Not
// registered otherwise, so an editor's server has no such method.
if (process.env.LWIR_DEBUG_MEMORY === "1") {
  connection.onRequest("lwir/_debugMemory", () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) for (let i = 0; i < 3; i++) gc();
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    // resourceUsage().maxRSS is in KiB
    return { rss, heapUsed, heapTotal, external, arrayBuffers, peakRss: process.resourceUsage().maxRSS * 1024, gc: gc !== undefined };
  });
}

startServer(connection);
