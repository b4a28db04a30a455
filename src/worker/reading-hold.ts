/**
 * Reading a file waits while its first verdict is made from a DB kept from an earlier visit: parsing more of the file
 * meanwhile would share this thread with reading that DB back (and IndexedDB with its read), and the first verdict would
 * come later; the rest of the file is read after. `start` holds at once — the piece after the one that opened the run
 * waits for it — until `done()`, until the kept DB is known not to be read, or `maxMs`.
 */
export class ReadingHold {
  private held: Promise<void> | null = null;
  private release: () => void = () => undefined;

  /** Holds reading from now on; `kept`: whether a kept DB is being read for the first verdict (false releases it). */
  start(kept: Promise<boolean>, maxMs: number): void {
    this.release();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const mine: Promise<void> = Promise.race([
      new Promise<void>((r) => (this.release = r)),
      new Promise<void>((r) => (timer = setTimeout(r, maxMs))),
      kept.then(
        (k) => (k ? new Promise<void>(() => undefined) : undefined),
        () => undefined,
      ),
    ]).then(() => {
      clearTimeout(timer);
      if (this.held === mine) this.held = null;
    });
    this.held = mine;
  }

  /** The first verdict is out (or will not come from a kept DB): reading goes on. */
  done(): void {
    this.release();
  }

  /** Resolves once reading may go on (at once when not held). */
  async wait(): Promise<void> {
    if (this.held) await this.held;
  }
}
