import { useEffect, useState } from 'react';
import { Button } from '../../ui/button';

export function CopyButton(props: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  const copy = (): void => {
    const clip = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clip) {
      setState('failed');
      return;
    }
    clip.writeText(props.text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <Button className="min-w-16" onClick={copy} aria-label={props.label} title={props.label}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </Button>
  );
}
