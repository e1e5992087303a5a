// Helpers for the tests of the ready-made integrations (GitHub Action, pre-commit hook, committed bundles).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new temporary folder (never a fixed path). */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
