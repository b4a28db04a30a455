import { benchmarkOf } from '../../core/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { MAX_LINK_CHARS } from '../../store/link';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';

/** Saves a file the worker made (a Blob URL; nothing leaves the browser). */
function download(name: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Puts the selected episode itself into a link (deflated, base64url) with the place it came from —
 * file name, index, step, its notes and label, what-if edits — and copies it: whoever opens it sees
 * the same episode, step, note and edits with no server holding the file. A link longer than
 * `MAX_LINK_CHARS` is not copied: the episode file is offered instead.
 */
/** `report`: a control that downloads the run's report, offered when the episode is too large for a link. */
export function ShareEpisodeButton({ report }: { report?: ReactNode } = {}) {
  const selected = useApp((s) => s.selected);
  const noun = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind).noun);
  const share = useApp((s) => s.share);
  const shareEpisode = useApp((s) => s.shareEpisode);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const mine = share && share.index === selected ? share : null;
  const url = mine?.fragment ? `${location.origin}${location.pathname}${mine.fragment}` : null;
  const tooLong = url !== null && url.length > MAX_LINK_CHARS ? url.length : null;
  const failed = mine?.error ? `Could not share: ${mine.error}` : null;

  useEffect(() => {
    if (url === null || tooLong !== null) return;
    const kb = Math.ceil(url.length / 1024);
    const done = (copied: boolean): void =>
      setCopyStatus(copied ? `Link with the ${noun}, its note and edits copied (${kb} KB)` : `Link ready (${kb} KB): copy it from the address bar`);
    const copy = navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error('no clipboard'));
    copy.then(
      () => done(true),
      () => done(false),
    );
    const t = setTimeout(() => setCopyStatus(null), 4000);
    return () => clearTimeout(t);
  }, [url, tooLong, noun]);
  const status = failed ?? copyStatus;

  if (selected === null) return null;
  return (
    <span className="relative inline-flex items-center gap-2">
      {status && (
        <span role="status" className="hidden text-xs text-slate-600 sm:inline" data-testid="share-status">
          {status}
        </span>
      )}
      <Button
        variant="outline"
        onClick={() => shareEpisode()}
        title={`Copy a link that carries this ${noun} itself, with its file name, step, note and what-if edits: no server or file needed to open it`}
      >
        <span className="sm:hidden">Share</span>
        <span className="hidden sm:inline">Share {noun}</span>
      </Button>
      {tooLong !== null && mine?.file !== undefined && dismissed !== mine.fragment && (
        <div
          role="alert"
          data-testid="share-too-long"
          className="fixed inset-x-2 top-12 z-30 rounded-md sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-1 sm:w-[22rem] border border-amber-300 bg-amber-50 p-3 text-xs whitespace-normal text-amber-950 shadow-lg"
        >
          <p>
            <strong>This episode is too large for a link:</strong> it would be {tooLong.toLocaleString('en-US')} characters, and links past{' '}
            {MAX_LINK_CHARS.toLocaleString('en-US')} are cut or refused by chat and mail. Nothing was copied.
          </p>
          <p className="mt-1">Send the episode file instead (the recipient opens it in tau-inspect), or the run’s report.</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button variant="primary" onClick={() => download(mine.fileName ?? 'episode.json', mine.file as Blob)}>
              Download the episode file
            </Button>
            {report}
            <Button variant="outline" onClick={() => setDismissed(mine.fragment)}>
              Close
            </Button>
          </div>
        </div>
      )}
    </span>
  );
}
