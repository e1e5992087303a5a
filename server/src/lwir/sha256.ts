// SHA-256 (FIPS 180-4) in plain TypeScript: the browser build has no node:crypto, and WebCrypto's
// digest is asynchronous while WorkflowVersion ids are computed synchronously.

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Incremental hasher over bytes; the state lives in an Int32Array so all arithmetic stays int32. */
class Sha256 {
  private readonly h = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  private readonly w = new Int32Array(64);
  private readonly block = new Uint8Array(64);
  private blockLen = 0;
  private total = 0; // bytes hashed so far (a double: exact far beyond any document size)

  update(bytes: Uint8Array, start = 0, end = bytes.length): void {
    this.total += end - start;
    let i = start;
    if (this.blockLen > 0) {
      const take = Math.min(64 - this.blockLen, end - i);
      this.block.set(bytes.subarray(i, i + take), this.blockLen);
      this.blockLen += take;
      i += take;
      if (this.blockLen < 64) return;
      this.compress(this.block, 0, 64);
      this.blockLen = 0;
    }
    const whole = i + ((end - i) & ~63);
    if (whole > i) this.compress(bytes, i, whole);
    if (whole < end) {
      this.block.set(bytes.subarray(whole, end), 0);
      this.blockLen = end - whole;
    }
  }

  digestHex(): string {
    const bitsHigh = Math.floor(this.total / 0x20000000); // total * 8 / 2^32
    const bitsLow = (this.total * 8) >>> 0;
    const pad = new Uint8Array(((this.blockLen + 9 + 63) & ~63) - this.blockLen);
    pad[0] = 0x80;
    const n = pad.length;
    pad[n - 8] = bitsHigh >>> 24;
    pad[n - 7] = bitsHigh >>> 16;
    pad[n - 6] = bitsHigh >>> 8;
    pad[n - 5] = bitsHigh;
    pad[n - 4] = bitsLow >>> 24;
    pad[n - 3] = bitsLow >>> 16;
    pad[n - 2] = bitsLow >>> 8;
    pad[n - 1] = bitsLow;
    const total = this.total;
    this.update(pad);
    this.total = total;
    let hex = "";
    for (let k = 0; k < 8; k++) hex += (this.h[k] >>> 0).toString(16).padStart(8, "0");
    return hex;
  }

  /** Processes the 64-byte blocks of bytes[start, end); end - start is a multiple of 64. */
  private compress(bytes: Uint8Array, start: number, end: number): void {
    const w = this.w;
    const h = this.h;
    let h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
    for (let off = start; off < end; off += 64) {
      let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
      // Message schedule and rounds in one loop (measured faster than two passes in V8).
      for (let t = 0; t < 64; t++) {
        let wt: number;
        if (t < 16) {
          const p = off + (t << 2);
          wt = (bytes[p] << 24) | (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3];
        } else {
          const x = w[t - 15];
          const y = w[t - 2];
          const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
          const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
          wt = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
        }
        w[t] = wt;
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const ch = (e & f) ^ (~e & g);
        const t1 = (hh + S1 + ch + K[t] + wt) | 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const maj = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (S0 + maj) | 0;
        hh = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
      h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + hh) | 0;
    }
    h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7;
  }
}

/**
 * The host's own SHA-256 of a string's UTF-8, when it has a synchronous one: the Node bundles set
 * node:crypto's (nodeSha256.ts), which hashes the 1,000-step benchmark's canonical JSON about 50× faster;
 * the browser keeps this file's (a maintained pure implementation, @noble/hashes, measured slower:
 * docs/benchmark.md). The lwir/ layer itself stays free of Node APIs.
 */
let hostSha256: ((text: string) => string) | undefined;
export function useHostSha256(hash: ((text: string) => string) | undefined): void {
  hostSha256 = hash;
}

/** Lower-case hex SHA-256 of the given bytes. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  const s = new Sha256();
  s.update(bytes);
  return s.digestHex();
}

// Strings are encoded in slices into one reusable buffer, so a 5 MB document never needs a second
// 5+ MB copy as bytes. 3 bytes per UTF-16 unit is the UTF-8 worst case.
const SLICE = 1 << 15;
let scratch: Uint8Array | undefined;

interface Utf8Encoder {
  encodeInto(src: string, dest: Uint8Array): { read?: number; written?: number };
}
const encoder: Utf8Encoder | undefined =
  typeof (globalThis as { TextEncoder?: unknown }).TextEncoder === "function"
    ? new (globalThis as unknown as { TextEncoder: new () => Utf8Encoder }).TextEncoder()
    : undefined;

/**
 * Lower-case hex SHA-256 of the UTF-8 encoding of `text`. Lone surrogates encode as U+FFFD, as
 * TextEncoder does.
 */
export function sha256Hex(text: string): string {
  if (hostSha256) return hostSha256(text);
  const s = new Sha256();
  const buf = (scratch ??= new Uint8Array(SLICE * 3));
  for (let i = 0; i < text.length; ) {
    let j = Math.min(i + SLICE, text.length);
    // Never split a surrogate pair across slices: each half alone would become U+FFFD.
    const last = text.charCodeAt(j - 1);
    if (j < text.length && last >= 0xd800 && last <= 0xdbff) j--;
    const n = encoder ? encoder.encodeInto(text.slice(i, j), buf).written ?? 0 : encodeUtf8(text, i, j, buf);
    s.update(buf, 0, n);
    i = j;
  }
  return s.digestHex();
}

/** Fallback UTF-8 encoder for hosts without TextEncoder; returns the number of bytes written. */
export function encodeUtf8(text: string, start: number, end: number, out: Uint8Array): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < end ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[n++] = 0xf0 | (cp >> 18);
        out[n++] = 0x80 | ((cp >> 12) & 63);
        out[n++] = 0x80 | ((cp >> 6) & 63);
        out[n++] = 0x80 | (cp & 63);
        i++;
        continue;
      }
      c = 0xfffd; // lone surrogate
    }
    out[n++] = 0xe0 | (c >> 12);
    out[n++] = 0x80 | ((c >> 6) & 63);
    out[n++] = 0x80 | (c & 63);
  }
  return n;
}
