import { useEffect, useState } from 'react';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';

/**
 * Puts the selected episode itself into a link (deflated, base64url) and copies it: whoever
 * opens it sees the same episode and step with no server holding the file.
 */
export function ShareEpisodeButton() {
  const selected = useApp((s) => s.selected);
  const share = useApp((s) => s.share);
  const shareEpisode = useApp((s) => s.shareEpisode);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const failed = share && share.index === selected && share.error ? `Could not share: ${share.error}` : null;

  useEffect(() => {
    if (!share || share.index !== selected || share.error || share.fragment === null) return;
    const url = `${location.origin}${location.pathname}${share.fragment}`;
    const kb = Math.ceil(url.length / 1024);
    const done = (copied: boolean): void => setCopyStatus(copied ? `Link with the episode copied (${kb} KB)` : `Link ready (${kb} KB): copy it from the address bar`);
    const copy = navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error('no clipboard'));
    copy.then(() => done(true), () => done(false));
    const t = setTimeout(() => setCopyStatus(null), 4000);
    return () => clearTimeout(t);
  }, [share, selected]);
  const status = failed ?? copyStatus;

  if (selected === null) return null;
  return (
    <span className="inline-flex items-center gap-2">
      {status && (
        <span role="status" className="hidden text-xs text-slate-600 sm:inline" data-testid="share-status">
          {status}
        </span>
      )}
      <Button
        variant="outline"
        onClick={() => shareEpisode()}
        title="Copy a link that carries this episode itself: no server or file needed to open it"
      >
        <span className="sm:hidden">Share</span>
        <span className="hidden sm:inline">Share episode</span>
      </Button>
    </span>
  );
}
