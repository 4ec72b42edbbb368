import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

export interface QrRenderTask {
  text: string;
  format: 'png' | 'svg';
  options: { margin: number; width: number; errorCorrectionLevel: string; color: { dark: string; light: string } };
  /** Dot and corner styles, and a logo: drawn by qr-style.js; without them the qrcode package draws. */
  style?: { dots: string; corners: string };
  logo?: { contentType: string; body: Uint8Array; raster: Uint8Array | null };
}

/** Decodes a PNG (an uploaded logo) in a thread: answers its `<width>x<height>`, fails when it is broken. */
export interface QrProbeTask {
  probe: Uint8Array;
}

/** Renders an SVG logo (checked by sniffQrLogo) as a PNG, for PNG codes: fails when it does not render. */
export interface QrRasterizeTask {
  rasterize: Uint8Array;
}

type QrTask = QrRenderTask | QrProbeTask | QrRasterizeTask;

interface Pending {
  id: number;
  task: QrTask;
  timeoutMs: number;
  resolve(body: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  busy?: Pending;
  /** Terminated because its task ran past its time. */
  timedOut?: boolean;
}

const WORKER_FILE = join(__dirname, 'qr-render.worker.js');
/** A render that takes longer than this is abandoned (its thread replaced). */
const RENDER_TIMEOUT_MS = 30_000;
/** The message of a task abandoned for its time. */
export const QR_RENDER_TIMED_OUT = 'QR render timed out';

/**
 * A small pool of worker threads that render QR codes (decisions §14: renders run off the
 * event loop). Threads start on first use, one task each at a time, the rest wait in order;
 * a thread that dies or hangs is replaced and its task fails (a 500 for that request only).
 * Threads are unref'd: an idle pool never keeps a process alive.
 */
@Injectable()
export class QrRenderPool implements OnModuleDestroy {
  private readonly logger = new Logger(QrRenderPool.name);
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private sequence = 0;
  private closed = false;
  readonly size = Math.max(1, Math.min(2, availableParallelism() - 1));

  /** Runs a task in a thread; one running past `timeoutMs` fails with QR_RENDER_TIMED_OUT and its thread is replaced. */
  render(task: QrTask, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('QR render pool is closed'));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: ++this.sequence, task, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads alive (for tests and metrics). */
  get threads(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a thread plus tasks running (for tests and metrics). */
  get inFlight(): number {
    return this.queue.length + this.slots.filter((s) => s.busy).length;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('QR render pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate().catch(() => undefined)));
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const next = this.queue.shift()!;
      this.run(slot, next);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (msg: { id: number; body?: Uint8Array; error?: string }) => {
      const pending = slot.busy;
      if (!pending || pending.id !== msg.id) return;
      // resvg's WebAssembly memory only grows (to hundreds of MB for a large SVG): its thread goes, the next task starts a new one.
      if ('rasterize' in pending.task) this.retire(slot);
      this.finish(slot);
      if (msg.body) pending.resolve(Buffer.from(msg.body.buffer, msg.body.byteOffset, msg.body.byteLength));
      else pending.reject(new Error(msg.error ?? 'QR render failed'));
    });
    const lost = (reason: string) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      const pending = slot.busy;
      slot.busy = undefined;
      if (slot.timedOut) {
        this.logger.warn({ timeoutMs: pending?.timeoutMs }, 'QR render timed out; its thread replaced');
        pending?.reject(new Error(QR_RENDER_TIMED_OUT));
      } else {
        if (!this.closed) this.logger.warn({ reason }, 'QR render thread lost; replacing it');
        pending?.reject(new Error(`QR render thread lost: ${reason}`));
      }
      this.dispatch();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, pending: Pending): void {
    slot.busy = pending;
    const timer = setTimeout(() => {
      if (slot.busy !== pending) return;
      slot.timedOut = true;
      void slot.worker.terminate();
    }, pending.timeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    const { resolve, reject } = pending;
    pending.resolve = (b) => {
      clear();
      resolve(b);
    };
    pending.reject = (e) => {
      clear();
      reject(e);
    };
    slot.worker.postMessage({ id: pending.id, ...pending.task });
  }

  /** Ends a thread that has done its task (lost() then finds it gone and says nothing). */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate().catch(() => undefined);
  }

  private finish(slot: Slot): void {
    slot.busy = undefined;
    queueMicrotask(() => this.dispatch());
  }
}
