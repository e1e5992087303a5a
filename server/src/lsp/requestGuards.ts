// What every handler of the server goes through: the session's phase (requests before `initialize` or after
// `shutdown` get the errors LSP prescribes), cancellation, parameter checks, and a bug costing one answer
// rather than the server. Also the parameter shapes the features check.
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection } from "vscode-languageserver";

export type Phase = "starting" | "running" | "shutDown";

/** The session's phase and its log, shared by every part of the server. */
export class Session {
  phase: Phase = "starting";

  constructor(private readonly connection: Connection) {}

  log(message: string): void {
    this.connection.console.log(message);
  }

  logError(what: string, error: unknown): void {
    this.connection.console.error(`lwir: ${what} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  }

  /** The error for a request that comes before `initialize` or after `shutdown`, if it does. */
  outOfPhase(name: string): ResponseError<never> | undefined {
    if (this.phase === "starting") return new ResponseError(ErrorCodes.ServerNotInitialized, `lwir: ${name} before initialize`);
    if (this.phase === "shutDown") return new ResponseError(ErrorCodes.InvalidRequest, `lwir: ${name} after shutdown`);
    return undefined;
  }

  /**
   * Wraps a handler of a textDocument/* request: cancellation before or after the work answers RequestCancelled, and an
   * exception is logged and answered with InternalError, so no request can take the server down.
   */
  documentRequest<P extends { textDocument: { uri: string } }, R>(
    name: string,
    handler: (params: P, token: CancellationToken) => R | Promise<R>,
    /** Says what is wrong with the rest of the params (the uri is checked here), or undefined when they are usable. */
    invalid: (params: P) => string | undefined = () => undefined,
  ) {
    return async (params: P, token: CancellationToken): Promise<R | ResponseError<never>> => {
      const wrongPhase = this.outOfPhase(name);
      if (wrongPhase) return wrongPhase;
      if (token.isCancellationRequested) return cancelled();
      if (typeof params?.textDocument?.uri !== "string") {
        return new ResponseError(ErrorCodes.InvalidParams, `lwir: ${name} needs params.textDocument.uri`);
      }
      const problem = invalid(params);
      if (problem !== undefined) return new ResponseError(ErrorCodes.InvalidParams, `lwir: ${name} needs ${problem}`);
      try {
        const result = await handler(params, token);
        return token.isCancellationRequested ? cancelled() : result;
      } catch (error) {
        if (error instanceof ResponseError) return error as ResponseError<never>;
        this.logError(name, error);
        return new ResponseError(ErrorCodes.InternalError, `lwir: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }

  /** Wraps a notification handler: an exception is logged and otherwise ignored. */
  notification<P>(name: string, handler: (params: P) => void | Promise<void>) {
    return (params: P): void => {
      try {
        const result = handler(params);
        if (result instanceof Promise) result.catch((error) => this.logError(name, error));
      } catch (error) {
        this.logError(name, error);
      }
    };
  }
}

export function cancelled(): ResponseError<never> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, "The request was cancelled.");
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A position with numeric line and character (out-of-range values are the features' business: they clamp). */
export function isPosition(v: unknown): boolean {
  return isRecord(v) && typeof v.line === "number" && Number.isFinite(v.line) && typeof v.character === "number" && Number.isFinite(v.character);
}

export function isRange(v: unknown): boolean {
  return isRecord(v) && isPosition(v.start) && isPosition(v.end);
}

/** The `invalid` check of requests at a position. */
export function needsPosition(params: { position: unknown }): string | undefined {
  return isPosition(params.position) ? undefined : "params.position {line, character}";
}
