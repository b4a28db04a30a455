import { useState } from 'react';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';

/** Copies a link to this run, data source, episode and step (local files cannot be linked). */
export function CopyLinkButton() {
  const kind = useApp((s) => s.source?.kind ?? null);
  const [copied, setCopied] = useState(false);
  if (kind === null) return null;
  const linkable = kind === 'sample' || kind === 'url';
  return (
    <Button
      variant="outline"
      disabled={!linkable}
      title={linkable ? 'Copy a link to this place' : 'A local file cannot be linked; open it by URL to share a link'}
      onClick={() => {
        void navigator.clipboard?.writeText(location.href).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? 'Copied' : 'Copy link'}
    </Button>
  );
}
