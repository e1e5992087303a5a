// HMAC-SHA-256 (RFC 2104) on the pure SHA-256 of lwir/sha256.ts, so `hmac()` evaluates in the browser
// build too. Strings are UTF-8 encoded as Node encodes them for node:crypto (a lone surrogate as U+FFFD).
import { encodeUtf8, sha256HexOfBytes } from "../lwir/sha256";

const BLOCK = 64;

function utf8(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  return out.subarray(0, encodeUtf8(text, 0, text.length, out));
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lower-case hex HMAC-SHA-256 of `message` under `key`, both as UTF-8. */
export function hmacSha256Hex(key: string, message: string): string {
  let k = utf8(key);
  if (k.length > BLOCK) k = hexBytes(sha256HexOfBytes(k));
  const m = utf8(message);
  const inner = new Uint8Array(BLOCK + m.length);
  const outer = new Uint8Array(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) {
    const b = i < k.length ? (k[i] as number) : 0;
    inner[i] = b ^ 0x36;
    outer[i] = b ^ 0x5c;
  }
  inner.set(m, BLOCK);
  outer.set(hexBytes(sha256HexOfBytes(inner)), BLOCK);
  return sha256HexOfBytes(outer);
}
