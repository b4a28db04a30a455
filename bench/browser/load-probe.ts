/**
 * The in-page probe both app benches use (`page.evaluate(probeLoad, n)` before choosing a file of n
 * episodes): when the file was chosen (`t0`), when the list held its n rows (`opened`: the file read to
 * its end), the first verdict of the new run and all n verdicts on screen (each at the next frame), and
 * every long task meanwhile.
 * Self-contained: it runs in the page, so it may not use anything from its module.
 */
export interface LoadProbe {
  n: number;
  t0: number | null;
  opened: number | null;
  first: number | null;
  all: number | null;
  /** When every row had its fingerprint (the key its notes are kept under), after all verdicts. */
  keyed: number | null;
  longtasks: { start: number; duration: number }[];
}

declare global {
  interface Window {
    __load: LoadProbe;
  }
}

export function probeLoad(n: number): void {
  const b: LoadProbe = { n, t0: null, opened: null, first: null, all: null, keyed: null, longtasks: [] };
  window.__load = b;
  // The run shown when the file was chosen: a verdict counts once the table shows another run (a big file's
  // rows come while it is read, so the first verdict may come before the table holds all n rows).
  let before: string | null = null;
  document.querySelector('[data-testid="open-file-input"]')?.addEventListener(
    'change',
    () => {
      b.t0 = performance.now();
      before = document.querySelector<HTMLElement>('[data-testid="episode-table"]')?.dataset.run ?? null;
    },
    { capture: true },
  );
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: false });
  const check = (): void => {
    if (b.t0 === null) return;
    const table = document.querySelector<HTMLElement>('[data-testid="episode-table"]');
    if (!table || table.dataset.run === undefined || table.dataset.run === before) return;
    if (b.first === null && document.querySelector('[data-testid="episode-row"]:not([data-reward=""])'))
      requestAnimationFrame(() => {
        b.first ??= performance.now();
      });
    if (table.dataset.total !== String(n) || table.dataset.reading === 'true') return;
    b.opened ??= performance.now();
    if (b.all === null && table.dataset.evaluated === String(n))
      requestAnimationFrame(() => {
        b.all ??= performance.now();
      });
    if (b.keyed === null && table.dataset.keying === '0')
      requestAnimationFrame(() => {
        b.keyed ??= performance.now();
      });
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-reward', 'data-evaluated', 'data-total', 'data-run', 'data-reading', 'data-keying'],
  });
}
