'use strict';
// Styled QR codes (decisions §24): dot and corner styles and a centred logo, drawn as SVG or
// as a PNG raster. Plain CommonJS: it runs as is in the render worker thread and under Jest.
// Coordinates are in modules; the quiet zone (margin) surrounds the symbol.
const QRCode = require('qrcode');
const ECCode = require('qrcode/lib/core/error-correction-code');
const Utils = require('qrcode/lib/core/utils');
const { PNG } = require('pngjs');

const DOTS = ['square', 'rounded', 'dots'];
const CORNERS = ['square', 'rounded', 'dot'];
/** The logo's box side as a share of the symbol's side: at most 9 % of its area. */
const LOGO_SIDE = 0.3;
/** Light modules around the drawn logo, inside its box. */
const LOGO_PADDING = 0.5;

/** The symbol of `text`: its modules, which of them are function patterns, and its block layout. */
function symbol(text, ecc) {
  const qr = QRCode.create(text, { errorCorrectionLevel: ecc });
  return { version: qr.version, level: qr.errorCorrectionLevel, size: qr.modules.size, data: qr.modules.data, reserved: qr.modules.reservedBit };
}

/** Top-left corner of the finder pattern (7 × 7) that holds module (row, col), or null. */
function finderAt(size, row, col) {
  if (row < 7 && col < 7) return [0, 0];
  if (row < 7 && col >= size - 7) return [0, size - 7];
  if (row >= size - 7 && col < 7) return [size - 7, 0];
  return null;
}

/**
 * For every module of the data area, the index of the codeword it carries in the final
 * (interleaved) sequence, or -1 (function patterns, remainder bits): the placement walk of
 * ISO/IEC 18004 §7.7.3, the same as the qrcode package's.
 */
function codewordMap(sym) {
  const { size, reserved } = sym;
  const map = new Int32Array(size * size).fill(-1);
  const total = Utils.getSymbolTotalCodewords(sym.version);
  let inc = -1;
  let row = size - 1;
  let bit = 0;
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col--;
    for (;;) {
      for (let c = 0; c < 2; c++) {
        const i = row * size + col - c;
        if (!reserved[i]) {
          const codeword = bit >> 3;
          if (codeword < total) map[i] = codeword;
          bit++;
        }
      }
      row += inc;
      if (row < 0 || row >= size) {
        row -= inc;
        inc = -inc;
        break;
      }
    }
  }
  return map;
}

/** The Reed-Solomon block of each codeword of the interleaved sequence, and each block's error capacity. */
function blockLayout(sym) {
  const total = Utils.getSymbolTotalCodewords(sym.version);
  const ecTotal = ECCode.getTotalCodewordsCount(sym.version, sym.level);
  const blocks = ECCode.getBlocksCount(sym.version, sym.level);
  const group2 = total % blocks;
  const group1 = blocks - group2;
  const data1 = Math.floor((total - ecTotal) / blocks);
  const ecPerBlock = Math.floor(total / blocks) - data1;
  const dataOf = (b) => (b < group1 ? data1 : data1 + 1);
  const blockOf = [];
  for (let i = 0; i < data1 + 1; i++) for (let b = 0; b < blocks; b++) if (i < dataOf(b)) blockOf.push(b);
  for (let i = 0; i < ecPerBlock; i++) for (let b = 0; b < blocks; b++) blockOf.push(b);
  return { blockOf, blocks, capacity: Math.floor(ecPerBlock / 2) };
}

/**
 * The error budget of a square box of modules hidden under a logo: every codeword with a
 * module in the box counted as wrong (the worst case), per block, against what each block
 * corrects. `fits` when no block gets more errors than it corrects.
 */
function logoBudget(sym, box) {
  const map = codewordMap(sym);
  const { blockOf, blocks, capacity } = blockLayout(sym);
  const hit = new Set();
  for (let r = box.start; r < box.end; r++) for (let c = box.start; c < box.end; c++) if (map[r * sym.size + c] >= 0) hit.add(map[r * sym.size + c]);
  const damaged = new Array(blocks).fill(0);
  for (const codeword of hit) damaged[blockOf[codeword]]++;
  return { damaged, capacity, fits: damaged.every((d) => d <= capacity) };
}

/** The centred box of modules cleared for the logo: LOGO_SIDE of the side, shrunk until it fits the error budget. */
function logoBox(sym) {
  let side = Math.floor(sym.size * LOGO_SIDE);
  if ((sym.size - side) % 2) side--;
  for (; side > 0; side -= 2) {
    const start = (sym.size - side) / 2;
    const box = { start, end: start + side };
    if (logoBudget(sym, box).fits) return box;
  }
  return null;
}

function inRoundRect(x, y, left, top, w, h, r) {
  if (x < left || y < top || x >= left + w || y >= top + h) return false;
  const cx = Math.min(Math.max(x, left + r), left + w - r);
  const cy = Math.min(Math.max(y, top + r), top + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** Is the point (x, y) of a finder pattern (local coordinates 0..7) dark, for a corner style. */
function finderDark(x, y, corners) {
  if (corners === 'dot') {
    const d = (x - 3.5) ** 2 + (y - 3.5) ** 2;
    return (d <= 3.5 ** 2 && d > 2.5 ** 2) || d <= 1.5 ** 2;
  }
  if (corners === 'rounded') {
    return (inRoundRect(x, y, 0, 0, 7, 7, 2) && !inRoundRect(x, y, 1, 1, 5, 5, 1.2)) || inRoundRect(x, y, 2, 2, 3, 3, 0.9);
  }
  return (x < 7 && y < 7 && !(x >= 1 && x < 6 && y >= 1 && y < 6)) || (x >= 2 && x < 5 && y >= 2 && y < 5);
}

/**
 * The module layout of a styled code: which modules are dark (finder patterns and the logo's
 * box excluded: they are drawn on their own), and each dark module's rounded corners.
 */
function layout(sym, box) {
  const n = sym.size;
  const inBox = (r, c) => box !== null && r >= box.start && r < box.end && c >= box.start && c < box.end;
  const dark = (r, c) => r >= 0 && c >= 0 && r < n && c < n && !finderAt(n, r, c) && !inBox(r, c) && sym.data[r * n + c] === 1;
  return { n, dark };
}

/** The radii (top-left, top-right, bottom-right, bottom-left) of a dark module in the rounded style: a corner rounds where both its neighbours are light. */
function roundedCorners(dark, r, c) {
  const up = dark(r - 1, c), down = dark(r + 1, c), left = dark(r, c - 1), right = dark(r, c + 1);
  return [!up && !left ? 0.5 : 0, !up && !right ? 0.5 : 0, !down && !right ? 0.5 : 0, !down && !left ? 0.5 : 0];
}

/** Is the point (fx, fy) (0..1 inside a dark module) dark, for a dot style. */
function dotDark(fx, fy, dots, radii) {
  if (dots === 'dots') return (fx - 0.5) ** 2 + (fy - 0.5) ** 2 <= 0.45 ** 2;
  if (dots === 'rounded') {
    const corner = fx < 0.5 ? (fy < 0.5 ? 0 : 3) : fy < 0.5 ? 1 : 2;
    const rad = radii[corner];
    if (!rad) return true;
    const cx = fx < 0.5 ? rad : 1 - rad;
    const cy = fy < 0.5 ? rad : 1 - rad;
    if ((fx < 0.5 ? fx >= cx : fx <= cx) || (fy < 0.5 ? fy >= cy : fy <= cy)) return true;
    return (fx - cx) ** 2 + (fy - cy) ** 2 <= rad * rad;
  }
  return true;
}

const fmt = (v) => String(Math.round(v * 1000) / 1000);

function roundedModulePath(x, y, [tl, tr, br, bl]) {
  const arc = (r, ex, ey) => (r ? `A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(ex)} ${fmt(ey)}` : `L${fmt(ex)} ${fmt(ey)}`);
  return (
    `M${fmt(x + tl)} ${fmt(y)}H${fmt(x + 1 - tr)}${arc(tr, x + 1, y + tr)}V${fmt(y + 1 - br)}${arc(br, x + 1 - br, y + 1)}` +
    `H${fmt(x + bl)}${arc(bl, x, y + 1 - bl)}V${fmt(y + tl)}${arc(tl, x + tl, y)}Z`
  );
}

function roundRectPath(x, y, w, h, r) {
  return (
    `M${fmt(x + r)} ${fmt(y)}H${fmt(x + w - r)}A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(x + w)} ${fmt(y + r)}V${fmt(y + h - r)}` +
    `A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(x + w - r)} ${fmt(y + h)}H${fmt(x + r)}A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(x)} ${fmt(y + h - r)}` +
    `V${fmt(y + r)}A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(x + r)} ${fmt(y)}Z`
  );
}

const circlePath = (cx, cy, r) => `M${fmt(cx - r)} ${fmt(cy)}a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(2 * r)} 0a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(-2 * r)} 0Z`;

function finderPath(x, y, corners) {
  if (corners === 'dot') return circlePath(x + 3.5, y + 3.5, 3.5) + circlePath(x + 3.5, y + 3.5, 2.5) + circlePath(x + 3.5, y + 3.5, 1.5);
  if (corners === 'rounded') return roundRectPath(x, y, 7, 7, 2) + roundRectPath(x + 1, y + 1, 5, 5, 1.2) + roundRectPath(x + 2, y + 2, 3, 3, 0.9);
  return `M${x} ${y}h7v7h-7zM${x + 1} ${y + 1}v5h5v-5zM${x + 2} ${y + 2}h3v3h-3z`;
}

/** `#rrggbbaa` (the render options' colours) → [r, g, b]. */
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Where the logo is drawn, in modules of the whole image (quiet zone included). */
function logoRect(box, margin) {
  const side = box.end - box.start - 2 * LOGO_PADDING;
  return { x: margin + box.start + LOGO_PADDING, y: margin + box.start + LOGO_PADDING, side };
}

/**
 * A styled code as SVG. task: {text, options: {margin, width, errorCorrectionLevel, color}, style: {dots, corners},
 * logo?: {contentType, body}}. A logo forces error correction H.
 */
function renderSvg(task) {
  const { options, style } = task;
  const sym = symbol(task.text, task.logo ? 'H' : options.errorCorrectionLevel);
  const box = task.logo ? logoBox(sym) : null;
  const { n, dark } = layout(sym, box);
  const m = options.margin;
  const total = n + 2 * m;
  const fg = options.color.dark.slice(0, 7);
  const bg = options.color.light.slice(0, 7);
  let modules = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!dark(r, c)) continue;
      const x = c + m, y = r + m;
      if (sym.reserved[r * n + c]) modules += `M${x} ${y}h1v1h-1z`;
      else if (style.dots === 'dots') modules += circlePath(x + 0.5, y + 0.5, 0.45);
      else if (style.dots === 'rounded') modules += roundedModulePath(x, y, roundedCorners(dark, r, c));
      else modules += `M${x} ${y}h1v1h-1z`;
    }
  }
  const finders = finderPath(m, m, style.corners) + finderPath(m + n - 7, m, style.corners) + finderPath(m, m + n - 7, style.corners);
  let logo = '';
  if (task.logo && box) {
    const rect = logoRect(box, m);
    const href = `data:${task.logo.contentType};base64,${Buffer.from(task.logo.body).toString('base64')}`;
    logo = `<image x="${fmt(rect.x)}" y="${fmt(rect.y)}" width="${fmt(rect.side)}" height="${fmt(rect.side)}" preserveAspectRatio="xMidYMid meet" href="${href}" xlink:href="${href}"/>`;
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${total} ${total}" width="${options.width}" height="${options.width}">` +
      `<rect width="${total}" height="${total}" fill="${bg}"/>` +
      (modules ? `<path fill="${fg}" d="${modules}"/>` : '') +
      `<path fill="${fg}" fill-rule="evenodd" d="${finders}"/>` +
      logo +
      '</svg>\n',
  );
}

/** Decodes a PNG (RGBA, 8 bits); throws on a broken one. */
function readPng(bytes) {
  return PNG.sync.read(Buffer.from(bytes));
}

/**
 * Samples an RGBA image into an out × out square (aspect kept, centred, transparent around):
 * the average of the source pixels under each target pixel when shrinking, bilinear when growing.
 */
function fitImage(img, out) {
  const scale = Math.min(out / img.width, out / img.height);
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const ox = Math.floor((out - w) / 2), oy = Math.floor((out - h) / 2);
  const dst = new Float32Array(out * out * 4); // premultiplied RGBA, 0..1 alpha
  const src = img.data;
  const px = (x, y) => (Math.min(img.height - 1, Math.max(0, y)) * img.width + Math.min(img.width - 1, Math.max(0, x))) * 4;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0, g = 0, b = 0, a = 0, count = 0;
      if (scale < 1) {
        const x0 = Math.floor(x / scale), x1 = Math.max(x0 + 1, Math.floor((x + 1) / scale));
        const y0 = Math.floor(y / scale), y1 = Math.max(y0 + 1, Math.floor((y + 1) / scale));
        for (let sy = y0; sy < y1; sy++) {
          for (let sx = x0; sx < x1; sx++) {
            const i = px(sx, sy);
            const al = src[i + 3] / 255;
            r += src[i] * al; g += src[i + 1] * al; b += src[i + 2] * al; a += al; count++;
          }
        }
      } else {
        const fx = (x + 0.5) / scale - 0.5, fy = (y + 0.5) / scale - 0.5;
        const x0 = Math.floor(fx), y0 = Math.floor(fy), tx = fx - x0, ty = fy - y0;
        for (const [sx, sy, wgt] of [[x0, y0, (1 - tx) * (1 - ty)], [x0 + 1, y0, tx * (1 - ty)], [x0, y0 + 1, (1 - tx) * ty], [x0 + 1, y0 + 1, tx * ty]]) {
          const i = px(sx, sy);
          const al = (src[i + 3] / 255) * wgt;
          r += src[i] * al; g += src[i + 1] * al; b += src[i + 2] * al; a += al; count += wgt;
        }
      }
      const o = ((y + oy) * out + x + ox) * 4;
      dst[o] = r / count; dst[o + 1] = g / count; dst[o + 2] = b / count; dst[o + 3] = a / count;
    }
  }
  return dst;
}

/** 2 × 2 samples per pixel: smooth edges for round shapes. */
const SAMPLES = [0.25, 0.75];
/** Module kinds of the raster's lookup table. */
const LIGHT = 0, STYLED = 1, FINDER = 2, SOLID = 3;

/**
 * A styled code as PNG (same task as renderSvg; a logo's `raster` (PNG) is drawn for an SVG
 * logo, its `body` for a PNG one). A pixel whose samples all fall in one module is a table
 * lookup; only pixels on a shape's edge evaluate the shape.
 */
function renderPng(task) {
  const { options, style } = task;
  const sym = symbol(task.text, task.logo ? 'H' : options.errorCorrectionLevel);
  const box = task.logo ? logoBox(sym) : null;
  const { n, dark } = layout(sym, box);
  const kind = new Uint8Array(n * n);
  const radii = new Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      if (finderAt(n, r, c)) kind[i] = FINDER;
      else if (!dark(r, c)) kind[i] = LIGHT;
      else if (style.dots === 'square' || sym.reserved[i]) kind[i] = SOLID;
      else {
        kind[i] = STYLED;
        if (style.dots === 'rounded') radii[i] = roundedCorners(dark, r, c);
      }
    }
  }
  const m = options.margin;
  const W = options.width;
  const s = W / (n + 2 * m); // pixels per module
  const fg = rgb(options.color.dark);
  const bg = rgb(options.color.light);
  // Module coordinate of each sample along an axis (the same for x and y).
  const coord = new Float64Array(W * 2);
  for (let p = 0; p < W; p++) for (let k = 0; k < 2; k++) coord[p * 2 + k] = (p + SAMPLES[k]) / s - m;
  const darkAt = (u, v) => {
    if (u < 0 || v < 0 || u >= n || v >= n) return false;
    const c = Math.floor(u), r = Math.floor(v);
    const i = r * n + c;
    const k = kind[i];
    if (k === LIGHT) return false;
    if (k === SOLID) return true;
    if (k === FINDER) {
      const f = finderAt(n, r, c);
      return finderDark(u - f[1], v - f[0], style.corners);
    }
    return dotDark(u - c, v - r, style.dots, radii[i]);
  };
  const png = new PNG({ width: W, height: W });
  const out = png.data;
  for (let y = 0; y < W; y++) {
    const v0 = coord[y * 2], v1 = coord[y * 2 + 1];
    const r0 = Math.floor(v0);
    const rowInside = r0 === Math.floor(v1) && r0 >= 0 && r0 < n;
    for (let x = 0; x < W; x++) {
      const u0 = coord[x * 2], u1 = coord[x * 2 + 1];
      const c0 = Math.floor(u0);
      let t;
      const k = rowInside && c0 === Math.floor(u1) && c0 >= 0 && c0 < n ? kind[r0 * n + c0] : -1;
      if (k === LIGHT) t = 0;
      else if (k === SOLID) t = 1;
      else if (k === -1 && (v1 < 0 || v0 >= n || u1 < 0 || u0 >= n)) t = 0;
      else t = ((darkAt(u0, v0) ? 1 : 0) + (darkAt(u1, v0) ? 1 : 0) + (darkAt(u0, v1) ? 1 : 0) + (darkAt(u1, v1) ? 1 : 0)) / 4;
      const o = (y * W + x) * 4;
      out[o] = Math.round(bg[0] + (fg[0] - bg[0]) * t);
      out[o + 1] = Math.round(bg[1] + (fg[1] - bg[1]) * t);
      out[o + 2] = Math.round(bg[2] + (fg[2] - bg[2]) * t);
      out[o + 3] = 255;
    }
  }
  if (task.logo && box) {
    const source = task.logo.contentType === 'image/png' ? task.logo.body : task.logo.raster;
    const rect = logoRect(box, m);
    const x0 = Math.round(rect.x * s), y0 = Math.round(rect.y * s);
    const side = Math.max(1, Math.round(rect.side * s));
    const fitted = fitImage(readPng(source), side);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        if (x0 + x >= W || y0 + y >= W) continue;
        const i = (y * side + x) * 4;
        const a = fitted[i + 3];
        const o = ((y0 + y) * W + x0 + x) * 4;
        for (let k = 0; k < 3; k++) out[o + k] = Math.round(fitted[i + k] + bg[k] * (1 - a));
      }
    }
  }
  return PNG.sync.write(png);
}

module.exports = { DOTS, CORNERS, LOGO_SIDE, symbol, codewordMap, blockLayout, logoBudget, logoBox, finderDark, dotDark, renderSvg, renderPng, readPng };
