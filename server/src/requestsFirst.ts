// Requests first. Validation is synchronous (parse + every rule: tens of ms for 1,000 steps), so a
// request the client has already sent, say completion right after the `.` the user typed, must not sit
// in the queue behind a validation that has not started yet. Between the moment the reader delivers a
// request and the moment the connection dispatches it, the request is waiting; the server's validation
// yields while any is (server.ts, `schedule`). Shared by the Node and web worker entries.
import { Message, type DataCallback, type MessageReader, type MessageStrategy } from "vscode-languageserver";

export class WaitingRequests {
  private readonly ids = new Set<number | string>();

  /** A request has arrived that the connection has not dispatched yet. */
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
          if (Message.isRequest(message)) this.ids.add(message.id ?? "");
          callback(message);
        }),
      dispose: () => inner.dispose(),
    };
  }

  /** The connection's dispatch hook: a request leaves the queue here (a cancelled one too: it is still dispatched). */
  readonly strategy: MessageStrategy = {
    handleMessage: (message, next) => {
      if (Message.isRequest(message)) this.ids.delete(message.id ?? "");
      return next(message);
    },
  };
}
