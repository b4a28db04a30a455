import { useEffect, type RefObject } from 'react';

/** While `open`, a pointer press outside `root` or Escape closes a menu (`close`); Escape also gives the focus back to `focusBack`. */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, close: () => void, focusBack?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent): void => {
      if (!root.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        close();
        focusBack?.current?.focus();
      }
    };
    window.addEventListener('pointerdown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('pointerdown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [open, root, close, focusBack]);
}
