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
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    if (!share || share.index !== selected) return;
    if (share.error) {
      setStatus(`Could not share: ${share.error}`);
      return;
    }
    if (share.fragment === null) return;
    const url = `${location.origin}${location.pathname}${share.fragment}`;
    const kb = Math.ceil(url.length / 1024);
    const done = (copied: boolean): void => setStatus(copied ? `Link with the episode copied (${kb} KB)` : `Link ready (${kb} KB): copy it from the address bar`);
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => done(true), () => done(false));
    else done(false);
    const t = setTimeout(() => setStatus(null), 4000);
    return () => clearTimeout(t);
  }, [share, selected]);

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
