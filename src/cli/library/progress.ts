/** The index's progress line on a terminal: files, episodes, rate, ETA (from the bytes left). */

const clock = (s: number): string => {
  if (!Number.isFinite(s)) return '--:--';
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const mm = String(Math.floor((t % 3600) / 60)).padStart(2, '0');
  const ss = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

export class Progress {
  private readonly start = performance.now();
  private files = 0;
  private bytes = 0;
  episodes = 0;
  bad = 0;
  private last = 0;

  constructor(
    private readonly totalFiles: number,
    private readonly totalBytes: number,
    private readonly write: ((line: string) => void) | null,
  ) {}

  /** Seconds since the start. */
  get seconds(): number {
    return (performance.now() - this.start) / 1000;
  }

  done(bytes: number, episodes: number, bad: boolean): void {
    this.files++;
    this.bytes += bytes;
    this.episodes += episodes;
    if (bad) this.bad++;
    const now = performance.now();
    if (this.write && (now - this.last > 200 || this.files === this.totalFiles)) {
      this.last = now;
      this.write(this.line());
    }
  }

  line(): string {
    const s = this.seconds;
    const rate = s > 0 ? this.episodes / s : 0;
    const left = this.bytes > 0 ? (s * (this.totalBytes - this.bytes)) / this.bytes : Infinity;
    return `files ${this.files}/${this.totalFiles}${this.bad ? ` (${this.bad} bad)` : ''} · episodes ${this.episodes} · ${rate.toFixed(1)}/s · ETA ${clock(left)}`;
  }
}
