// node:crypto's SHA-256 for the Node bundles (the CLI, the language server): lwir/sha256.ts stays free of
// Node APIs and uses it once set. Loaded on the first hash, not at start-up (docs/benchmark.md, "Start-up").
import { useHostSha256 } from "./lwir/sha256";

export function useNodeSha256(): void {
  let crypto: typeof import("node:crypto") | undefined;
  // Lone surrogates: Node's "utf8" writes U+FFFD for them, as TextEncoder (and lwir/sha256.ts) do.
  useHostSha256((text) => (crypto ??= require("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(text, "utf8").digest("hex"));
}
