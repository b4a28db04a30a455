import { Button } from './button';
import { useApp, useAppStore } from './store-context';

/**
 * The two list buttons at the head of an open episode or simulation: back to the list on narrow
 * screens (Esc), show or hide the list beside it on wide ones (l). `noun` names the rows.
 */
export function ListToggle({ noun }: { noun: 'episode' | 'simulation' }) {
  const store = useAppStore();
  const listHidden = useApp((s) => s.layout.listHidden);
  const s = store.getState;
  return (
    <>
      <Button onClick={() => s().select(null)} className="whitespace-nowrap lg:hidden" aria-label={`Back to the ${noun} list (Esc)`}>
        ‹ List
      </Button>
      <Button
        onClick={() => s().toggleLayout('listHidden')}
        className="hidden whitespace-nowrap lg:inline-block"
        aria-pressed={!listHidden}
        title={`Show or hide the ${noun} list (l)`}
      >
        {listHidden ? '☰ List' : '⇤ List'}
      </Button>
    </>
  );
}
