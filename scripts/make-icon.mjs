// Draws the extension icon (128×128 PNG): three workflow steps joined by edges, one looping back.
import { deflateSync } from "node:zlib";
import { writeFileSync } from "node:fs";

const N = 128;
const px = new Uint8Array(N * N * 4);
const bg = [24, 38, 66], edge = [120, 190, 255], node = [255, 255, 255], accent = [255, 196, 70];
function put(x, y, c, a = 1) {
  if (x < 0 || y < 0 || x >= N || y >= N) return;
  const i = (y * N + x) * 4;
  for (let k = 0; k < 3; k++) px[i + k] = Math.round(px[i + k] * (1 - a) + c[k] * a);
  px[i + 3] = 255;
}
for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
  const r = 22, dx = Math.max(r - x, x - (N - 1 - r), 0), dy = Math.max(r - y, y - (N - 1 - r), 0);
  const d = Math.hypot(dx, dy);
  if (d <= r) put(x, y, bg, Math.min(1, r - d + 0.5));
}
function segment(x0, y0, x1, y1, w, c) {
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    const vx = x1 - x0, vy = y1 - y0, t = Math.max(0, Math.min(1, ((x - x0) * vx + (y - y0) * vy) / (vx * vx + vy * vy)));
    const d = Math.hypot(x - (x0 + t * vx), y - (y0 + t * vy));
    if (d < w) put(x, y, c, Math.min(1, w - d));
  }
}
function disc(cx, cy, r, c) {
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    const d = Math.hypot(x - cx, y - cy);
    if (d < r) put(x, y, c, Math.min(1, r - d));
  }
}
const a = [34, 40], b = [94, 64], c = [40, 96];
segment(...a, ...b, 4, edge);
segment(...b, ...c, 4, edge);
segment(...c, ...a, 3, accent);
disc(...a, 13, node); disc(...b, 13, node); disc(...c, 13, accent);

const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) { raw[y * (N * 4 + 1)] = 0; Buffer.from(px.buffer, y * N * 4, N * 4).copy(raw, y * (N * 4 + 1) + 1); }
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
}
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6;
writeFileSync("images/icon.png", Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]));
