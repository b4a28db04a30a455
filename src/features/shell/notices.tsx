import { useEffect } from 'react';
import type { Notice } from '../../store/notices-slice';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';

function NoticeItem({ n, dismiss }: { n: Notice; dismiss: (id: number) => void }) {
  useEffect(() => {
    if (n.tone !== 'info') return;
    const t = setTimeout(() => dismiss(n.id), 6000);
    return () => clearTimeout(t);
  }, [n, dismiss]);
  return (
    <div
      role={n.tone === 'error' ? 'alert' : 'status'}
      data-testid="notice"
      className={`flex items-start gap-3 rounded-lg border px-3 py-2 text-sm shadow-lg ${n.tone === 'error' ? 'border-rose-200 bg-rose-50 text-rose-900' : 'border-slate-200 bg-white text-slate-800'}`}
    >
      <p className="min-w-0 flex-1 break-words">{safeLabel(n.text, 1000)}</p>
      <button
        type="button"
        onClick={() => dismiss(n.id)}
        className="rounded px-1.5 text-base leading-none text-slate-600 hover:bg-black/5 hover:text-slate-900"
        aria-label="Dismiss message"
      >
        ×
      </button>
    </div>
  );
}

/** Messages about whole files (bad JSON, unreachable URL) and data sources; the app keeps what was open. */
export function Notices() {
  const notices = useApp((s) => s.notices);
  const dismiss = useAppStore().getState().dismissNotice;
  if (notices.length === 0) return null;
  return (
    <div className="fixed bottom-3 left-1/2 z-50 flex w-[min(40rem,calc(100vw-1.5rem))] -translate-x-1/2 flex-col gap-2" role="region" aria-label="Messages">
      {notices.map((n) => (
        <NoticeItem key={n.id} n={n} dismiss={dismiss} />
      ))}
    </div>
  );
}
