/** A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise). */
export class ProgressBar {
  private readonly started = Date.now();
  private lastPct = -1;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly enabled = true,
  ) {}

  update(done: number): void {
    if (!this.enabled) return;
    const pct = this.total ? Math.min(100, Math.floor((done / this.total) * 100)) : 100;
    if (!this.tty && (pct === this.lastPct || pct % 10 !== 0)) return;
    if (this.tty && pct === this.lastPct && done < this.total) return;
    this.lastPct = pct;
    const width = 30;
    const filled = Math.round((pct / 100) * width);
    const secs = (Date.now() - this.started) / 1000;
    const rate = secs > 0 ? Math.round(done / secs) : 0;
    const line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ${rate.toLocaleString('en-US')}/s`;
    process.stderr.write(this.tty ? `\r${line}` : `${line}\n`);
  }

  done(note = ''): void {
    if (!this.enabled) return;
    this.update(this.total);
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    process.stderr.write(`${this.tty ? '' : ''} ${note} (${secs} s)\n`);
  }
}
