'use strict';
// QR rendering off the api's event loop (decisions §14; styles and logos §24): a 2048 px PNG takes about a second
// of CPU. Plain CommonJS so it runs as is in a worker thread, under the apps and under Jest.
const { readFileSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const QRCode = require('qrcode');
const styled = require('./qr-style');

/** The longest side of an SVG logo's PNG rendering: more than a logo covers in a 2048 px code (9 % of its area). */
const RASTER_SIDE = 640;
let resvgReady;

/**
 * An SVG logo as a PNG of RASTER_SIDE px on its longest side, with resvg compiled to WebAssembly
 * (no native binary to install; it reads no file and no network: the SVG was checked for
 * references at upload anyway). Text without an embedded font is not drawn.
 */
async function rasterizeSvg(bytes) {
  const { initWasm, Resvg } = require('@resvg/resvg-wasm');
  resvgReady ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
  await resvgReady;
  const svg = Buffer.from(bytes).toString('utf8');
  const probe = new Resvg(svg);
  const [width, height] = [probe.width, probe.height];
  probe.free();
  if (!(width > 0 && height > 0)) throw new Error('the SVG has no size');
  const fitTo = width >= height ? { mode: 'width', value: RASTER_SIDE } : { mode: 'height', value: RASTER_SIDE };
  const resvg = new Resvg(svg, { fitTo, font: { loadSystemFonts: false } });
  const image = resvg.render();
  try {
    return Buffer.from(image.asPng());
  } finally {
    image.free();
    resvg.free();
  }
}

parentPort.on('message', async (task) => {
  try {
    let body;
    if (task.probe) {
      const image = styled.readPng(task.probe);
      body = Buffer.from(`${image.width}x${image.height}`);
    } else if (task.rasterize) {
      body = await rasterizeSvg(task.rasterize);
    } else if (task.style) {
      body = task.format === 'svg' ? styled.renderSvg(task) : styled.renderPng(task);
    } else {
      body =
        task.format === 'svg'
          ? Buffer.from(await QRCode.toString(task.text, { ...task.options, type: 'svg' }))
          : await QRCode.toBuffer(task.text, { ...task.options, type: 'png' });
    }
    const copy = new Uint8Array(body.byteLength);
    copy.set(body);
    parentPort.postMessage({ id: task.id, body: copy }, [copy.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: task.id, error: String((err && err.message) || err) });
  }
});
