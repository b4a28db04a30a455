/**
 * Scrolls the nearest `[data-scroll]` ancestor of `first` (only that box, never the page) so
 * `first` through `last` are visible, or at least the top of `first` when both do not fit.
 */
export function scrollIntoBox(first: Element | null | undefined, last: Element | null = null): void {
  const box = first?.parentElement?.closest('[data-scroll]');
  if (!first || !box) return;
  const c = box.getBoundingClientRect();
  const top = first.getBoundingClientRect().top;
  const bottom = (last ?? first).getBoundingClientRect().bottom;
  const pad = 8;
  if (top < c.top + pad) box.scrollTop += top - c.top - pad;
  else if (bottom > c.bottom - pad) box.scrollTop += Math.min(bottom - c.bottom + pad, top - c.top - pad);
}
