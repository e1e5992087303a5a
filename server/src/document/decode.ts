// Bytes → text, for files read from disk (the CLI, the language server's workspace scan, the browser
// extension reading through vscode.workspace.fs). Pure: no Node APIs.
//
// The runtime reads a workflow with Node's `readFile(path, "utf8")`: every byte-order mark is kept, a byte
// sequence that is not UTF-8 becomes one U+FFFD, NUL is a character like any other. Then `JSON.parse`
// refuses any leading BOM, and the `yaml` package drops exactly one. decodeUtf8 reads the same text and
// says where the U+FFFDs stand for bytes (the warnings of service/sourceBytes.ts); documentText removes
// the one BOM an editor removes when it opens a YAML file, so columns match the editor's and the document
// layer reads a second BOM as the runtime does (document/depth.ts, parseYamlCst).
import type { Format } from "./types";

/** Bytes that are not UTF-8, replaced by one U+FFFD at `offset` (UTF-16) of the decoded text. */
export interface InvalidUtf8 {
  offset: number;
  /** The bytes that one U+FFFD replaced (one to three). */
  bytes: number[];
}

export interface DecodedText {
  /** The text exactly as Node's `readFile(path, "utf8")`, and so the runtime, reads it. */
  text: string;
  /** Every U+FFFD of `text` that replaced bytes (a U+FFFD written in the file as EF BF BD is not listed). */
  invalidUtf8: InvalidUtf8[];
}

export type Decoded = ({ ok: true } & DecodedText) | { ok: false; reason: string };

/** Bytes → text as the runtime reads them; never fails. */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    // ignoreBOM keeps a BOM in the output (Node's "utf8" keeps it too).
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), invalidUtf8: [] };
  } catch {
    return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), invalidUtf8: invalidSequences(bytes) };
  }
}

/**
 * Why a file found while scanning a folder is skipped as binary (a NUL byte, or a UTF-16 byte-order mark),
 * or undefined for text. Files the user names or opens are read whatever their bytes (decodeUtf8).
 */
export function binaryReason(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return "not UTF-8 text (it starts with a UTF-16 byte order mark; save it as UTF-8)";
  }
  return bytes.includes(0) ? "binary file" : undefined;
}

/**
 * Bytes → text. `binary: "skip"` (folder scans) refuses what binaryReason names; `"read"` (a file the user
 * named) reads anything as the runtime does.
 */
export function decodeSource(bytes: Uint8Array, binary: "skip" | "read" = "skip"): Decoded {
  const reason = binary === "skip" ? binaryReason(bytes) : undefined;
  return reason !== undefined ? { ok: false, reason } : { ok: true, ...decodeUtf8(bytes) };
}

/**
 * The text the document layer reads for a decoded file: in YAML without its first leading BOM, as editors
 * show it (the runtime's `yaml` drops that one, and reads a second as part of the first key); JSON keeps
 * it (the runtime's JSON.parse refuses it, and the JSON layer says so).
 */
export function documentText(decoded: DecodedText, format: Format): DecodedText & { bom: string } {
  if (format !== "yaml" || decoded.text.charCodeAt(0) !== 0xfeff) return { ...decoded, bom: "" };
  return { text: decoded.text.slice(1), invalidUtf8: decoded.invalidUtf8.map((i) => ({ offset: i.offset - 1, bytes: i.bytes })), bom: "\ufeff" };
}

/**
 * Where the WHATWG UTF-8 decoder (TextDecoder's, and Node's) puts a U+FFFD: its algorithm, run only for the
 * positions. A sequence cut short by an unexpected byte is one U+FFFD, and that byte is read again.
 */
function invalidSequences(bytes: Uint8Array): InvalidUtf8[] {
  const out: InvalidUtf8[] = [];
  let offset = 0; // UTF-16 offset in the decoded text
  let needed = 0, seen = 0, codePoint = 0, lower = 0x80, upper = 0xbf, start = 0;
  const fail = (end: number): void => {
    out.push({ offset, bytes: Array.from(bytes.subarray(start, end)) });
    offset += 1;
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (needed === 0) {
      start = i;
      if (b <= 0x7f) offset += 1;
      else if (b >= 0xc2 && b <= 0xdf) { needed = 1; codePoint = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        needed = 2; codePoint = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3; codePoint = b & 0x07;
      } else fail(i + 1);
      continue;
    }
    if (b < lower || b > upper) {
      needed = seen = codePoint = 0; lower = 0x80; upper = 0xbf;
      fail(i);
      i--; // read this byte again
      continue;
    }
    lower = 0x80; upper = 0xbf;
    codePoint = (codePoint << 6) | (b & 0x3f);
    if (++seen === needed) {
      offset += codePoint > 0xffff ? 2 : 1;
      needed = seen = codePoint = 0;
    }
  }
  if (needed !== 0) fail(bytes.length);
  return out;
}
