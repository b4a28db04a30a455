import type { Ref } from 'react';

/**
 * A hidden picker for one JSON file, opened by a button elsewhere (`ref.current.click()`). The value
 * is cleared after each pick, so picking the same file again fires again.
 */
export function JsonFileInput({ ref, onFile, testId, label }: { ref: Ref<HTMLInputElement>; onFile: (file: File) => void; testId: string; label?: string }) {
  return (
    <input
      ref={ref}
      type="file"
      accept=".json,application/json"
      // `sr-only` keeps it in the accessibility tree (named by `label`) without a tab stop; otherwise it is simply hidden.
      className={label === undefined ? 'hidden' : 'sr-only'}
      {...(label !== undefined && { 'aria-label': label, tabIndex: -1 })}
      data-testid={testId}
      onChange={(e) => {
        const f = e.currentTarget.files?.[0];
        e.currentTarget.value = '';
        if (f) onFile(f);
      }}
    />
  );
}
