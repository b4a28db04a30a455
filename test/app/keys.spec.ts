import { describe, expect, it } from 'vitest';
import type { EpisodeHeader, EpisodeSummary, EpisodeView } from '../../src/core/contract';
import { handleKey, KEYS, PANEL_KEYS } from '../../src/app/keys';
import { SIDE_PANELS } from '../../src/app/episode-body';
import { TAU2_PANEL_KEYS, TAU2_PANELS } from '../../src/app/tau2/panels';
import type { Tau2SimView } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';
import { TEST_DETECTION, testSummary } from '../support/store-fixtures';

const { port } = fakePort();
const header = (index: number): EpisodeHeader => ({
  index,
  taskId: index,
  trial: 0,
  recordedReward: index % 2,
  turns: 4,
  problem: null,
  extra: {},
  fingerprint: String(index).padStart(64, '0'),
});
const summary = (index: number): EpisodeSummary => testSummary(index, index % 2, { reasons: index % 2 ? [] : ['db-mismatch'] });
const detection = { ...TEST_DETECTION, ruleFinal: true, fileKindText: '' };
const key = (k: string, extra: Partial<KeyboardEvent> = {}): KeyboardEvent =>
  ({ key: k, target: null, defaultPrevented: false, ctrlKey: false, metaKey: false, altKey: false, ...extra }) as KeyboardEvent;

function opened() {
  const store = createAppStore(port);
  const s = store.getState;
  s().openSample('a');
  s().receive(says.opened(1, 'a.json', [0, 1, 2, 3].map(header)));
  s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
  s().receive(says.summaries(1, [0, 1, 2, 3].map(summary), 4));
  return { store, s };
}

describe('keyboard model', () => {
  it('moves the step cursor with j/k, the arrows, Home/End, even before the episode has loaded', () => {
    const { store, s } = opened();
    expect(handleKey(key('j'), store)).toBe(false);
    s().select(1);
    for (const k of ['j', 'ArrowDown', 'j', 'k']) expect(handleKey(key(k), store)).toBe(true);
    expect(s().step).toBe(2);
    s().receive(says.view(1, s().selected!, { steps: [{}, {}, {}, {}] } as unknown as EpisodeView));
    expect(s().step).toBe(2);
    handleKey(key('End'), store);
    expect(s().step).toBe(3);
    handleKey(key('ArrowDown'), store);
    expect(s().step).toBe(3);
    handleKey(key('Home'), store);
    handleKey(key('ArrowUp'), store);
    expect(s().step).toBe(0);
    // With a modifier the browser keeps the key.
    expect(handleKey(key('j', { ctrlKey: true }), store)).toBe(false);
    expect(s().step).toBe(0);
  });

  it('steps through episodes (n/p, f/F for failed ones), toggles panels, Escape closes help then the episode', () => {
    const { store, s } = opened();
    handleKey(key('Enter'), store);
    expect(s().selected).toBe(0);
    handleKey(key('n'), store);
    expect(s().selected).toBe(1);
    handleKey(key('f'), store);
    expect(s().selected).toBe(2);
    handleKey(key('F'), store);
    expect(s().selected).toBe(0);
    handleKey(key('p'), store);
    expect(s().selected).toBe(0);
    const verdict = s().layout.verdictOpen;
    handleKey(key('v'), store);
    expect(s().layout.verdictOpen).toBe(!verdict);
    handleKey(key('l'), store);
    expect(s().layout.listHidden).toBe(true);
    handleKey(key('?'), store);
    expect(s().helpOpen).toBe(true);
    handleKey(key('Escape'), store);
    expect(s().helpOpen).toBe(false);
    expect(s().selected).toBe(0);
    handleKey(key('Escape'), store);
    expect(s().selected).toBeNull();
    expect(handleKey(key('Escape'), store)).toBe(false);
  });

  it('leaves the run’s screens alone while the library covers them (only ? works)', () => {
    const { store, s } = opened();
    handleKey(key('Enter'), store);
    expect(s().selected).toBe(0);
    store.setState({ libraryShown: true });
    for (const k of ['n', 'j', 'l', '2', 'Escape']) expect(handleKey(key(k), store), k).toBe(false);
    expect(s().selected).toBe(0);
    expect(s().layout.listHidden).toBe(false);
    expect(handleKey(key('?'), store)).toBe(true);
    store.setState({ libraryShown: false });
    expect(handleKey(key('n'), store)).toBe(true);
    expect(s().selected).toBe(1);
  });

  it('shows each side panel by its digit, the side column too; keeps the panel for the next episode, a phone back on the dialogue', () => {
    const { store, s } = opened();
    expect(handleKey(key('2'), store), 'no episode open').toBe(false);
    s().select(1);
    s().toggleLayout('sideHidden');
    expect(s().layout.sideHidden).toBe(true);
    for (const [i, id] of PANEL_KEYS.entries()) {
      expect(handleKey(key(String(i + 1)), store)).toBe(true);
      expect(s().panel).toEqual({ id, phone: 'panel' });
      expect(s().layout.sideHidden).toBe(false);
    }
    expect(handleKey(key('9'), store), 'no ninth panel').toBe(false);
    s().select(2);
    expect(s().panel).toEqual({ id: PANEL_KEYS.at(-1), phone: 'dialogue' });
    // Every panel the app mounts has a digit, in the order the side column shows them (after DB, diff, outputs).
    expect(['db', 'diff', 'outputs', ...SIDE_PANELS.map((p) => p.id)]).toEqual(PANEL_KEYS);
  });

  it('a τ² run: digits show the τ² panels in TAU2_PANELS order, j/k/Home/End move over its messages (tool messages belong to their call)', () => {
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('t');
    s().receive(says.tau2Opened(1, 't.json', [0, 1].map(header), { domain: 'mock', solo: false, numTrials: 1, notes: [] }));
    s().receive(says.tau2Ready(1));
    s().select(0);
    const roles = ['assistant', 'user', 'assistant', 'tool', 'tool', 'assistant'];
    const view = {
      benchmark: 'tau2',
      index: 0,
      messages: roles.map((role, index) => ({ index, role, content: null, calls: [], answers: null, requestor: null, error: false })),
    };
    s().receive({ type: 'view', run: 1, episode: 0, view: view as unknown as Tau2SimView, error: null });
    expect(TAU2_PANEL_KEYS).toEqual(TAU2_PANELS.map((p) => p.id));
    // The key list names each of them.
    const help = KEYS.find((k) => k.what.startsWith('τ² simulation'))!;
    for (const p of TAU2_PANELS) expect(help.what).toContain(p.name);
    TAU2_PANEL_KEYS.forEach((id, i) => {
      expect(handleKey(key(String(i + 1)), store)).toBe(true);
      expect(s().panel.id).toBe(id);
    });
    const at = (): number | null => s().step;
    handleKey(key('j'), store);
    expect(at()).toBe(1);
    handleKey(key('j'), store);
    handleKey(key('j'), store);
    // From message 2 the next step is 5: 3 and 4 are tool messages.
    expect(at()).toBe(5);
    handleKey(key('k'), store);
    expect(at()).toBe(2);
    handleKey(key('Home'), store);
    expect(at()).toBe(0);
    handleKey(key('End'), store);
    expect(at()).toBe(5);
  });

  it('lists every key it handles in the help', () => {
    const listed = new Set(KEYS.flatMap((k) => k.keys));
    for (const k of ['j', 'k', '↑', '↓', 'Home', 'End', 'n', 'p', 'f', 'F', 'Enter', 'Esc', 'l', 'v', 's', '/', ',', '.', '?'])
      expect(listed.has(k), k).toBe(true);
  });
});
