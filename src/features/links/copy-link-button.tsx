import { useState } from 'react';
import { useApp } from '../../ui/store-context';

/** Copies a link to this run, data source, episode and step (local files cannot be linked). */
export function CopyLinkButton() {
  const kind = useApp((s) => s.source?.kind ?? null);
  const [copied, setCopied] = useState(false);
  if (kind === null) return null;
  const linkable = kind === 'sample' || kind === 'url';
  return (
    <button
      type="button"
      disabled={!linkable}
      title={linkable ? 'Copy a link to this place' : 'A local file cannot be linked; open it by URL to share a link'}
      onClick={() => {
        void navigator.clipboard?.writeText(location.href).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
      className="whitespace-nowrap rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50"
    >
      {copied ? 'Copied' : 'Copy link'}
    </button>
  );
}
