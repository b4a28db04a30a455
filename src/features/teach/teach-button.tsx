import { benchmarkOf } from '../../core/contract';
import { Button } from '../../ui/button';
import { useApp, useAppStore } from '../../ui/store-context';

/** Opens the selected episode in teaching mode ("judge it yourself": its verdict hidden until revealed). */
export function TeachButton() {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const noun = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind).noun);
  if (selected === null) return null;
  return (
    <Button
      variant="outline"
      // Not on phones, whose header has no room left: a teacher starts it on a wider screen and shares the link.
      className="hidden sm:inline-flex"
      onClick={() => store.getState().startTeaching()}
      title={`Teaching mode: this ${noun}’s dialogue and checks, to mark met or not before its verdict is revealed (its link opens the same way)`}
      data-testid="teach-start"
    >
      Teach
    </Button>
  );
}
