'use strict';
// QR rendering off the api's event loop (decisions §14; styles and logos §24): a 2048 px PNG takes about a second
// of CPU. Plain CommonJS so it runs as is in a worker thread, under the apps and under Jest.
const { parentPort } = require('node:worker_threads');
const QRCode = require('qrcode');
const styled = require('./qr-style');

parentPort.on('message', async (task) => {
  try {
    let body;
    if (task.probe) {
      const image = styled.readPng(task.probe);
      body = Buffer.from(`${image.width}x${image.height}`);
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
