/**
 * How many rows the side column's tabs take on screen (run in the page with `page.evaluate`): the
 * distinct tops of the visible tabs.
 */
export const SIDE_TAB_ROWS = (): number =>
  new Set(
    [...document.querySelectorAll('[data-testid="side-tabs"] [role="tab"]')]
      .filter((t) => t.getClientRects().length > 0)
      .map((t) => Math.round(t.getBoundingClientRect().top)),
  ).size;

/** The most rows the side tabs may take at a viewport width (1440: two; 1920: one). */
export const MAX_TAB_ROWS: Readonly<Record<number, number>> = { 1440: 2, 1920: 1 };
