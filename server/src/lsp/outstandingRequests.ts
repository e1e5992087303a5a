// Requests first. Validation is synchronous (parse + every rule: tens of ms for 1,000 steps), so a
// request the client has already sent, say completion right after the `.` the user typed, must not sit
// behind a validation that has not started yet, nor its answer wait in our output queue while one runs.
// A request is outstanding from the moment the reader delivers it until its response has been written;
// the server's validation yields while any is (validationScheduler.ts). Shared by the Node and web worker
// entries, which build their connections with these reader and writer wrappers.
import { Message, type DataCallback, type MessageReader, type MessageWriter } from "vscode-languageserver";

/**
 * Requests the server holds open on purpose until it has something new to say (workspaceScan.ts): not
 * waiting for anything, so nothing yields to them (else the workspace scan would crawl while one is held).
 */
const HELD_OPEN = new Set(["workspace/diagnostic"]);

export class OutstandingRequests {
  private readonly ids = new Set<number | string>();

  /** A request has arrived whose response has not been written yet. */
  get any(): boolean {
    return this.ids.size > 0;
  }

  /** The same reader, noting each request as it arrives. */
  reader(inner: MessageReader): MessageReader {
    return {
      onError: inner.onError,
      onClose: inner.onClose,
      onPartialMessage: inner.onPartialMessage,
      listen: (callback: DataCallback) =>
        inner.listen((message) => {
          if (Message.isRequest(message) && !HELD_OPEN.has(message.method)) this.ids.add(message.id ?? "");
          callback(message);
        }),
      dispose: () => inner.dispose(),
    };
  }

  /** The same writer, letting go of a request once its response (result or error) is written. */
  writer(inner: MessageWriter): MessageWriter {
    return {
      onError: inner.onError,
      onClose: inner.onClose,
      write: (message) => {
        const written = inner.write(message);
        if (Message.isResponse(message)) {
          const id = message.id ?? "";
          // Written or failed: either way nothing more will come for this request.
          written.then(() => this.ids.delete(id), () => this.ids.delete(id));
        }
        return written;
      },
      end: () => inner.end(),
      dispose: () => inner.dispose(),
    };
  }
}
