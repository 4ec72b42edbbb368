import { ValidationError } from '@dl/platform/http';

/** Decisions §24: a QR logo is a PNG or an SVG of at most 100 KB. */
export const QR_LOGO_MAX_BYTES = 100 * 1024;
/** A larger PNG would cost too much memory to decode for a logo drawn at most a few hundred pixels wide. */
export const QR_LOGO_MAX_PIXELS = 2048;

export type QrLogoType = 'image/png' | 'image/svg+xml';

export const QR_LOGO_MESSAGES = {
  required: 'A PNG or SVG file is required',
  tooLarge: 'Must be at most 100 KB',
  notImage: 'Must be a PNG or SVG image',
  dimensions: `Must be at most ${QR_LOGO_MAX_PIXELS} × ${QR_LOGO_MAX_PIXELS} pixels`,
  unsafeSvg: 'SVG must not contain scripts, event handlers, foreignObject, entities or external references',
  rasterPng: 'Must be a PNG image: the rendering of the SVG logo drawn in PNG codes',
  rasterWithoutSvg: 'Only an SVG logo takes a raster',
  unrenderableSvg: 'The SVG could not be rendered (malformed, or over 2 seconds of work): send its PNG rendering as raster',
} as const;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's dimensions from its IHDR chunk, or null when the bytes are not a PNG. */
export function pngDimensions(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_MAGIC) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** What makes an SVG unsafe to keep, checked on the text and again with its character references decoded. */
const UNSAFE_SVG = [
  /<!DOCTYPE|<!ENTITY/i,
  /<\??\s*(?:[\w-]+:)?(script|foreignObject|iframe|embed|object|handler|listener|set|animate\w*|audio|video|xml-stylesheet)\b/i,
  /[\s"'/]on[a-z]+\s*=/i,
  /href\s*=(?!\s*["']?\s*#)/i,
  /url\s*\((?!\s*["']?\s*#)/i,
  /@import|javascript:|expression\s*\(/i,
];

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (all, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? all;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** The bytes as UTF-8 text when they are an SVG document (an `<svg` root after an optional prolog and comments), else null. */
function svgText(bytes: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const prolog = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*/.exec(text)?.[0] ?? '';
  return /^<svg[\s>]/.test(text.slice(prolog.length)) && /<\/svg\s*>\s*$|\/>\s*$/.test(text) ? text : null;
}

/** Is this SVG text free of anything that runs or loads: scripts, handlers, foreignObject, entities, external references. */
export function isSafeSvg(text: string): boolean {
  const decoded = decodeReferences(text);
  return !UNSAFE_SVG.some((rule) => rule.test(text) || rule.test(decoded));
}

/**
 * The type of an uploaded logo, sniffed from its bytes (never its name or declared type):
 * a PNG of at most 2048 × 2048 pixels or a safe SVG, at most 100 KB; anything else → 400
 * `Validation error` naming `field`. A PNG is decoded (off the event loop) by the caller.
 */
export function sniffQrLogo(bytes: Buffer, field = 'logo'): QrLogoType {
  if (bytes.length > QR_LOGO_MAX_BYTES) throw new ValidationError({ [field]: QR_LOGO_MESSAGES.tooLarge });
  const png = pngDimensions(bytes);
  if (png) {
    if (!png.width || !png.height || png.width > QR_LOGO_MAX_PIXELS || png.height > QR_LOGO_MAX_PIXELS) {
      throw new ValidationError({ [field]: QR_LOGO_MESSAGES.dimensions });
    }
    return 'image/png';
  }
  const svg = svgText(bytes);
  if (svg === null) throw new ValidationError({ [field]: QR_LOGO_MESSAGES.notImage });
  if (!isSafeSvg(svg)) throw new ValidationError({ [field]: QR_LOGO_MESSAGES.unsafeSvg });
  return 'image/svg+xml';
}
