import type { AppStore } from '../store/app-store';
import { sanitizeLayout, type Layout } from '../store/layout-slice';

const KEY = 'tau-inspect:layout';
const WELCOMED = 'tau-inspect:welcomed';

function load(): Partial<Layout> {
  try {
    const raw = localStorage.getItem(KEY);
    return raw === null ? {} : sanitizeLayout(JSON.parse(raw));
  } catch {
    return {};
  }
}

/** Applies the theme: the system setting unless the switch says light or dark. */
function applyTheme(theme: Layout['theme'], media: MediaQueryList): void {
  const dark = theme === 'dark' || (theme === 'system' && media.matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

/** Restores the remembered layout (panels, theme), keeps it remembered, and follows the system theme. */
export function persistLayout(store: AppStore): () => void {
  const stored = load();
  // First start on a phone: the charts start folded, so the list has the screen.
  const phone = stored.chartsOpen === undefined && !matchMedia('(min-width: 640px)').matches;
  store.getState().setLayout(phone ? { ...stored, chartsOpen: false } : stored);
  const media = matchMedia('(prefers-color-scheme: dark)');
  let last = store.getState().layout;
  applyTheme(last.theme, media);
  const unsubscribe = store.subscribe((s) => {
    if (s.layout === last) return;
    if (s.layout.theme !== last.theme) applyTheme(s.layout.theme, media);
    last = s.layout;
    try {
      localStorage.setItem(KEY, JSON.stringify(s.layout));
    } catch {
      /* storage off: the layout still works, it is just not remembered */
    }
  });
  const onSystem = (): void => applyTheme(store.getState().layout.theme, media);
  media.addEventListener('change', onSystem);
  return () => {
    unsubscribe();
    media.removeEventListener('change', onSystem);
  };
}

/** Whether the welcome line was dismissed in this browser. */
export function welcomed(): boolean {
  try {
    return localStorage.getItem(WELCOMED) === '1';
  } catch {
    return false;
  }
}

export function markWelcomed(): void {
  try {
    localStorage.setItem(WELCOMED, '1');
  } catch {
    /* not remembered */
  }
}
