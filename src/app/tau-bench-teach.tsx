import { tauBenchTeachSheet, tauBenchView } from '../core/contract';
import { Dialogue } from '../features/episode/dialogue';
import { whenDrawn } from '../ui/progressive';
import type { TeachDescriptor } from '../features/teach/teach-screen';

const NO_STEPS: readonly never[] = [];
const noop = (): void => undefined;

/**
 * τ-bench's part of teaching mode: the sheet from an episode's view (DB hash, outputs), and its dialogue as recorded —
 * the episode screen's dialogue with no steps, so no step's DB change, output mark or search hit shows in it.
 */
export const TAU_BENCH_TEACH: TeachDescriptor = {
  sheet: (v) => {
    const t = tauBenchView(v);
    return t && tauBenchTeachSheet(t);
  },
  dialogue: (v) => {
    const t = tauBenchView(v);
    return t && <Dialogue view={{ messages: t.messages, steps: NO_STEPS, strategy: t.strategy }} step={-1} mark={null} reveal={null} onSelect={noop} />;
  },
  show: ({ message }) => {
    if (message !== null)
      whenDrawn(
        () => document.querySelector(`[data-testid="teach-dialogue"] [data-message-index="${message}"]`),
        (el) => el.scrollIntoView({ block: 'center' }),
      );
  },
};
