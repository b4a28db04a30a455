import { useState } from 'react';
import { MAX_LINK_CHARS } from '../../store/link';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp } from '../../ui/store-context';

/**
 * Copies a link to this run, data source, episode, step, filters, search and sort. A local file
 * cannot travel in a link: the link names it (`file=`), the recipient is asked to open it, and this
 * says so when it is copied.
 */
export function CopyLinkButton() {
  const kind = useApp((s) => s.runs.a.source?.kind ?? null);
  const file = useApp((s) => s.runs.a.source?.file ?? null);
  /** What the last click did: copied, left to the address bar, or refused as too long; and the sentence to show. */
  const [said, setSaid] = useState<{ readonly outcome: 'copied' | 'address-bar' | 'too-long'; readonly text: string } | null>(null);
  if (kind === null) return null;
  const local = kind === 'file' || kind === 'stored' || kind === 'folder';
  const title = local
    ? `Copy a link to this place. The link cannot carry the file: the recipient must open ${file ?? 'it'} themselves; the link keeps episode, step, filters`
    : 'Copy a link to this place (episode, step, filters, search and sort)';
  return (
    <span className="relative inline-flex">
      <Button
        variant="outline"
        title={title}
        onClick={() => {
          const url = location.href;
          if (url.length > MAX_LINK_CHARS) {
            setSaid({
              outcome: 'too-long',
              text: `This link is ${url.length.toLocaleString('en-US')} characters, too long to paste in chat or mail: use Share episode’s file instead.`,
            });
            return;
          }
          const say = (copied: boolean): void => {
            setSaid({
              outcome: copied ? 'copied' : 'address-bar',
              text: `${copied ? 'Link copied.' : 'Copy the link from the address bar.'}${local ? ` The recipient must open ${safeLabel(file ?? 'the file', 120)} themselves; the link keeps episode, step, filters.` : ''}`,
            });
            setTimeout(() => setSaid(null), local ? 8000 : 2000);
          };
          (navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error('no clipboard'))).then(
            () => say(true),
            () => say(false),
          );
        }}
      >
        {said?.outcome === 'copied' ? 'Copied' : 'Copy link'}
      </Button>
      {said && (
        <span
          role="status"
          data-testid="copy-link-status"
          className="fixed inset-x-2 top-12 z-30 rounded-md sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-1 sm:w-[20rem] border border-slate-300 bg-white p-2 text-xs whitespace-normal text-slate-800 shadow-lg"
        >
          {said.text}
        </span>
      )}
    </span>
  );
}
