import { useCallback, useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';

/** Marks a scroll box that is a tab stop: while it has the focus, the arrow keys and Home/End scroll it (src/app/keys.ts). */
export const SCROLL_REGION = 'data-scroll-region';

/** Focus ring of a scroll box, just outside its edge (inside, it would cover the first letters of each line). */
const RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600';

const overflows = (el: HTMLElement): boolean => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;

/** Makes `el` a named tab stop while its content overflows (`over`), and a plain box again once it fits. */
function mark(el: HTMLElement, label: string, over: boolean): void {
  if (over) {
    if (el.tabIndex !== 0) el.tabIndex = 0;
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', label);
    el.setAttribute(SCROLL_REGION, '');
  } else if (el.hasAttribute(SCROLL_REGION)) {
    for (const a of ['tabindex', 'role', 'aria-label', SCROLL_REGION]) el.removeAttribute(a);
  }
}

/**
 * Boxes to measure, with their labels, measured together: every box's overflow read first, then every box's
 * attributes written. One box measured and marked at a time made the browser lay the page out again for each
 * (a read after another box's write): a dialogue of 1,000 boxes (a what-if link's inserted calls) was a
 * second-long task.
 */
const queued = new Map<HTMLElement, string>();
let flushing = false;

function measureQueued(): void {
  flushing = false;
  const boxes = [...queued];
  queued.clear();
  const over = boxes.map(([el]) => el.isConnected && overflows(el));
  boxes.forEach(([el, label], i) => mark(el, label, over[i]!));
}

function queueMark(el: HTMLElement, label: string): void {
  queued.set(el, label);
  if (!flushing) {
    flushing = true;
    queueMicrotask(measureQueued);
  }
}

/** The label each box has now, for the shared observer. */
const labels = new WeakMap<Element, string>();
/** One observer for every box, so a resize of many is one callback (one read of all, then the writes). */
let resizes: ResizeObserver | null = null;
const observer = (): ResizeObserver | null => {
  if (resizes === null && typeof ResizeObserver !== 'undefined')
    resizes = new ResizeObserver((entries) => {
      for (const e of entries) {
        // A box not yet labelled is measured by its first render's effect.
        const label = labels.get(e.target);
        if (label !== undefined) queueMark(e.target as HTMLElement, label);
      }
    });
  return resizes;
};

/**
 * A box that scrolls what does not fit (a long tool output, a record, an instruction). While its content overflows
 * it is a tab stop, a region named `label`, so a keyboard user can reach it and scroll it (WCAG 2.1.1; axe's
 * scrollable-region-focusable); a box whose content fits adds no tab stop and no landmark. Overflow is measured
 * when the box resizes and after each render of its owner (the content may outgrow a box already at its maximum
 * height), all boxes queued in a task together (`queueMark`); the attributes are set on the element directly, so a
 * measure never renders again.
 */
export function ScrollBox(
  props: {
    as?: 'div' | 'pre' | 'p' | 'span';
    /** What the box holds, unique on the screen ("Tool output, message #13"). */
    label: string;
    className?: string;
    children: ReactNode;
  } & Omit<HTMLAttributes<HTMLElement>, 'className' | 'children' | 'tabIndex' | 'role' | 'aria-label'>,
) {
  const { as: Tag = 'div', label, className, children, ...rest } = props;
  const box = useRef<HTMLElement | null>(null);
  const ref = useCallback((node: HTMLElement | null) => {
    if (!node) return;
    box.current = node;
    const o = observer();
    o?.observe(node);
    return () => {
      o?.unobserve(node);
      queued.delete(node);
      box.current = null;
    };
  }, []);
  useEffect(() => {
    if (!box.current) return;
    labels.set(box.current, label);
    queueMark(box.current, label);
  });
  return (
    <Tag {...rest} ref={ref} className={`${className ?? ''} ${RING}`}>
      {children}
    </Tag>
  );
}
