// The language server in Node (dist/server-main.js, started by dist/server.js: serverLoader.ts):
// `node dist/server.js --stdio` (any editor), or IPC / pipes / sockets
// as vscode-languageserver picks from the arguments (`--node-ipc` when VS Code starts it).
import {
  createConnection,
  IPCMessageReader,
  IPCMessageWriter,
  ProposedFeatures,
  StreamMessageReader,
  Message,
  StreamMessageWriter,
  type Connection,
  type ConnectionOptions,
} from "vscode-languageserver/node";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WorkerLayouter } from "./graph/workerLayouter";
import { OutstandingRequests } from "./lsp/outstandingRequests";
import { startServer } from "./server";
import { useNodeSha256 } from "./nodeSha256";
import { NodeFileSource } from "./workspace/nodeFileSource";
import { setRuleDocsBase } from "./service/ruleDocs";
import { AGENT_TOOL_REQUEST, type AgentToolResult } from "./protocol";

// Heap settings (--heap-growing-percent) are made before this bundle is compiled: serverLoader.ts.

// The rule pages shipped beside dist/ (the extension's folder, or a clone): diagnostics link to them, offline,
// unless the client names other pages (service/ruleDocs.ts).
const localRuleDocs = join(__dirname, "..", "docs", "rules");
if (existsSync(localRuleDocs)) setRuleDocsBase(`${pathToFileURL(localRuleDocs).href}/`);

const outstanding = new OutstandingRequests();
const connection = connect();

/**
 * stdio and IPC get a reader and writer of our own, so that validation can see requests not answered yet
 * (lsp/outstandingRequests.ts); sockets and pipes are left to vscode-languageserver's own argument handling.
 */
function connect(): Connection {
  const argv = process.argv.slice(2);
  if (argv.includes("--node-ipc")) {
    return createConnection(ProposedFeatures.all, outstanding.reader(new IPCMessageReader(process)), outstanding.writer(new IPCMessageWriter(process)));
  }
  if (!argv.includes("--stdio")) return createConnection(ProposedFeatures.all);
  let shutdownRequested = false;
  const options: ConnectionOptions = {
    messageStrategy: {
      handleMessage: (message, next) => {
        if (Message.isRequest(message) && message.method === "shutdown") shutdownRequested = true;
        return next(message);
      },
    },
  };
  const stdio = createConnection(ProposedFeatures.all, outstanding.reader(new StreamMessageReader(process.stdin)), outstanding.writer(new StreamMessageWriter(process.stdout)), options);
  // What vscode-languageserver does for stdio when it opens the streams itself: the editor closing our
  // stdin ends the server (0 after a shutdown request, else 1), and stray console output goes to the
  // client's log rather than into the protocol stream on stdout.
  const end = () => process.exit(shutdownRequested ? 0 : 1);
  process.stdin.on("end", end);
  process.stdin.on("close", end);
  console.log = console.info = (...args: unknown[]) => stdio.console.log(args.map(String).join(" "));
  return stdio;
}

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

// Graph layouts in a worker thread (dist/graph-layout-worker.js beside this bundle): a 1,000-step layout
// takes longer than a parse, and diagnostics and completion must not wait for it.
const layouter = new WorkerLayouter(join(__dirname, "graph-layout-worker.js"), (message) => {
  try {
    connection.console.warn(`lwir: ${message}`);
  } catch {
    // the connection is gone
  }
});
process.on("exit", () => layouter.dispose());

useNodeSha256();
startServer(connection, { requestsOutstanding: () => outstanding.any, fileSources: [new NodeFileSource()], layouter });
// VS Code's Language Model Tools (client/src/languageModelTools.ts): lwir mcp's answers on the editor's text,
// loaded on the first such request, so the server's start-up does not pay for them.
connection.onRequest(AGENT_TOOL_REQUEST, (params: unknown): AgentToolResult =>
  (require("./mcp/languageServer") as typeof import("./mcp/languageServer")).answerAgentTool(params));
