// The few globals the suite uses that both of its hosts have (the web worker extension host and Node's),
// declared here rather than pulling in the DOM or Node typings, which would let either side's APIs slip in.
declare const console: { log(...args: unknown[]): void; error(...args: unknown[]): void };
declare function setTimeout(handler: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare class TextEncoder { encode(text: string): Uint8Array; }
declare class TextDecoder { decode(bytes: Uint8Array): string; }
declare const crypto: { subtle: { digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer> } };

// mocha's browser build: it defines the globals `mocha` and `Mocha` (typed by @types/mocha) and exports nothing we use.
declare module "mocha/mocha.js" {}
