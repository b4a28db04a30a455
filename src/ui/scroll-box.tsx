import { useCallback, useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';

/** Marks a scroll box that is a tab stop: while it has the focus, the arrow keys and Home/End scroll it (src/app/keys.ts). */
export const SCROLL_REGION = 'data-scroll-region';

/** Focus ring of a scroll box, just outside its edge (inside, it would cover the first letters of each line). */
const RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600';

const overflows = (el: HTMLElement): boolean => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;

/** Makes `el` a named tab stop while its content overflows, and a plain box again once it fits. */
function mark(el: HTMLElement, label: string): void {
  if (overflows(el)) {
    if (el.tabIndex !== 0) el.tabIndex = 0;
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', label);
    el.setAttribute(SCROLL_REGION, '');
  } else if (el.hasAttribute(SCROLL_REGION)) {
    for (const a of ['tabindex', 'role', 'aria-label', SCROLL_REGION]) el.removeAttribute(a);
  }
}

/**
 * A box that scrolls what does not fit (a long tool output, a record, an instruction). While its content overflows
 * it is a tab stop, a region named `label`, so a keyboard user can reach it and scroll it (WCAG 2.1.1; axe's
 * scrollable-region-focusable); a box whose content fits adds no tab stop and no landmark. Overflow is measured
 * when the box resizes and after each render of its owner (the content may outgrow a box already at its maximum
 * height); the attributes are set on the element directly, so a measure never renders again.
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
  const labelRef = useRef(label);
  const ref = useCallback((node: HTMLElement | null) => {
    if (!node) return;
    box.current = node;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => mark(node, labelRef.current));
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      box.current = null;
    };
  }, []);
  useEffect(() => {
    labelRef.current = label;
    if (box.current) mark(box.current, label);
  });
  return (
    <Tag {...rest} ref={ref} className={`${className ?? ''} ${RING}`}>
      {children}
    </Tag>
  );
}
