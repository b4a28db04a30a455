import { useEffect, useLayoutEffect, useRef } from 'react';

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return TYPING.has(target.tagName) || target.isContentEditable;
}

/** The step a key moves to from `step` (of `count` steps), or null when the key is not a step key. */
export function stepForKey(key: string, step: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return Math.min(step + 1, count - 1);
    case 'k':
    case 'ArrowUp':
      return Math.max(step - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** j/k, ArrowDown/ArrowUp, Home/End on the window move the step cursor while mounted. */
export function useStepKeys(step: number, count: number, onStep: (n: number) => void): void {
  const latest = useRef({ step, count, onStep });
  useLayoutEffect(() => {
    latest.current = { step, count, onStep };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typingInto(e.target)) return;
      const { step: s, count: n, onStep: go } = latest.current;
      const next = stepForKey(e.key, s, n);
      if (next === null) return;
      e.preventDefault();
      if (next !== s) go(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
