// Draws the extension's icon, images/icon.png (128×128 RGBA): "RPy" in a 5×7 pixel font,
// white on a rounded blue square. Run `node scripts/make-icon.js` after changing it; the
// PNG is committed. Uses only node's zlib.

'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const SIZE = 128;
const GLYPHS = {
  R: ['1111.', '1...1', '1...1', '1111.', '1.1..', '1..1.', '1...1'],
  P: ['1111.', '1...1', '1...1', '1111.', '1....', '1....', '1....'],
  // A descender: drawn one row lower than the capitals' baseline allows, as lowercase.
  y: ['.....', '.....', '1...1', '1...1', '.1111', '....1', '.111.'],
};
const SCALE = 6;
const BG = [0x2b, 0x5b, 0x84, 0xff];
const FG = [0xff, 0xff, 0xff, 0xff];
const ACCENT = [0xff, 0xd4, 0x3b, 0xff];

const pixels = Buffer.alloc(SIZE * SIZE * 4);
function put(x, y, c) {
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return;
  pixels.set(c, (y * SIZE + x) * 4);
}

// Rounded square.
const R = 22;
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const cx = Math.min(Math.max(x, R), SIZE - 1 - R);
    const cy = Math.min(Math.max(y, R), SIZE - 1 - R);
    if ((x - cx) ** 2 + (y - cy) ** 2 <= R * R) put(x, y, BG);
  }
}

// The letters, centred; "y" in the accent colour and one cell lower.
const text = ['R', 'P', 'y'];
const width = text.length * 5 * SCALE + (text.length - 1) * SCALE;
let x0 = Math.floor((SIZE - width) / 2);
const y0 = Math.floor((SIZE - 7 * SCALE) / 2) - SCALE / 2;
for (const ch of text) {
  const g = GLYPHS[ch];
  const dy = ch === 'y' ? SCALE : 0;
  for (let row = 0; row < 7; row++) {
    for (let col = 0; col < 5; col++) {
      if (g[row][col] !== '1') continue;
      for (let yy = 0; yy < SCALE; yy++) {
        for (let xx = 0; xx < SCALE; xx++) {
          put(x0 + col * SCALE + xx, y0 + dy + row * SCALE + yy, ch === 'y' ? ACCENT : FG);
        }
      }
    }
  }
  x0 += 6 * SCALE;
}

// PNG: signature, IHDR, IDAT (filter 0 per row), IEND.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  pixels.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
}
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.writeFileSync(path.join(__dirname, '..', 'images', 'icon.png'), png);
