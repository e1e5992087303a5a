// The language server in a web worker (vscode.dev, github.dev): the same server as node.ts, speaking
// LSP over the worker's postMessage channel.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
import { OutstandingRequests } from "./lsp/outstandingRequests";
import { startServer } from "./server";

// The worker's global scope; typed through the reader's parameter since the DOM lib is not loaded.
const scope = globalThis as unknown as ConstructorParameters<typeof BrowserMessageReader>[0];
const outstanding = new OutstandingRequests();
const connection = createConnection(outstanding.reader(new BrowserMessageReader(scope)), outstanding.writer(new BrowserMessageWriter(scope)));

startServer(connection, { requestsOutstanding: () => outstanding.any });
