import { describe, expect, it } from 'vitest';
import { episodeFingerprint, type FingerprintedHeader, type EpisodeNotes } from '../../src/core/contract';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { createAppStore, type AppStore } from '../../src/store/app-store';
import { formatLink, parseLink, viewFromLink, viewToLink, EMPTY_LINK } from '../../src/store/link';
import { memoryNotes } from '../../src/store/notes-port';
import type { ToWorker } from '../../src/protocol/messages';
import { readShareContext } from '../../src/protocol/share-context';
import type { RunSource } from '../../src/protocol/wire-types';
import { encodePayload } from '../../src/formats/share-codec';
import { decodeSharedEpisode, SHARE_MAGIC, sharePayload, shareText, splitSharedText } from '../../src/worker/shared-episode';
import { sampleRunText } from '../support/fixtures';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';

const portOpening = (opened: RunSource[]) => fakePort((m) => void (m.type === 'open-run' && opened.push(m.source))).port;

const flush = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

describe('the #ep= envelope (version 2)', () => {
  const records = readResultsFile(sampleRunText());
  const headers: FingerprintedHeader[] = records.map((r) => ({
    index: r.index,
    taskId: r.taskId,
    trial: r.trial,
    recordedReward: r.recordedReward,
    turns: 1,
    problem: null,
    extra: {},
    fingerprint: episodeFingerprint(r),
  }));
  const edit = { messageIndex: 7, kwargsJson: '{"order_id": "#W1"}' };

  /** A store with a local file open (`file`), episode 5 at step 3, a note, a label and a what-if edit, that shares it. */
  async function shareFromLocalFile(): Promise<{ fragment: string; json: string }> {
    const asked: ToWorker<'share-link'>[] = [];
    const store = createAppStore(fakePort((m) => void (m.type === 'share-link' && asked.push(m))).port);
    const s = store.getState;
    s().openFile(new File(['[]'], 'gpt <b>run</b>.json'));
    s().receive(says.opened(1, 'gpt <b>run</b>.json', headers));
    s().select(5, 3);
    await s().editNotes(5, { note: 'the agent never asked for consent', label: 'agent error', step: { index: 3, text: 'here' } });
    store.setState({ whatIfEdits: { 5: [edit] } });
    s().shareEpisode();
    // The worker's part: the episode's text with the context the page sent, deflated.
    const json = jsonDumps(records[5]!.raw);
    const req = asked.at(-1)!;
    expect([req.run, req.episode]).toEqual([1, 5]);
    s().receive({ type: 'share-link', run: 1, episode: 5, payload: sharePayload(json, req.context), file: new Blob([json]), error: null });
    return { fragment: s().share!.fragment!, json };
  }

  /** Opens a fragment in a fresh store, doing the worker's part (decode, split, read the context) by hand. */
  function openInFreshStore(fragment: string, notes = memoryNotes()): { store: AppStore; episode: string } {
    const opened: RunSource[] = [];
    const store = createAppStore(portOpening(opened), undefined, notes);
    store.getState().restore(parseLink(fragment));
    const src = opened.at(-1)!;
    if (src.kind !== 'shared') throw new Error(`opened ${src.kind}`);
    const { episode, context } = splitSharedText(decodeSharedEpisode(src.payload));
    const one = readResultsFile(episode);
    store
      .getState()
      .receive(
        says.opened(
          1,
          'the episode shared in the link',
          [{ ...headers[5]!, index: 0, fingerprint: episodeFingerprint(one[0]!) }],
          context === null ? undefined : readShareContext(context),
        ),
      );
    return { store, episode };
  }

  it('carries the file name, original index, step, note, label and edits to a fresh browser', async () => {
    const { fragment, json } = await shareFromLocalFile();
    expect(fragment).toMatch(/^#ep=[A-Za-z0-9_-]+&episode=0&step=3$/);
    const { store, episode } = openInFreshStore(fragment);
    await flush();
    expect(episode).toBe(json);
    const s = store.getState();
    expect(s.runs.a.source?.label).toBe('episode #5 of gpt <b>run</b>.json, shared in the link');
    expect(s.sharedFrom).toMatchObject({ file: 'gpt <b>run</b>.json', index: 5, notes: 'added', conflicts: [], problems: [] });
    expect(s.selected).toBe(0);
    expect(s.step).toBe(3);
    expect(s.whatIfEdits[0]).toEqual([edit]);
    const n = s.notes.get(headers[5]!.fingerprint);
    expect(n).toMatchObject({ note: 'the agent never asked for consent', label: 'agent error', steps: { 3: 'here' } });
  });

  it('a different note already in this browser is kept and shown as a conflict, never overwritten', async () => {
    const { fragment } = await shareFromLocalFile();
    const notes = memoryNotes();
    const mine: EpisodeNotes = {
      fingerprint: headers[5]!.fingerprint,
      label: null,
      note: 'my own reading',
      steps: {},
      file: 'x.json',
      index: 5,
      taskId: 5,
      updatedAt: '',
    };
    await notes.put(mine);
    const { store } = openInFreshStore(fragment, notes);
    await flush();
    const s = store.getState();
    expect(s.sharedFrom?.notes).toBe('conflict');
    expect(s.sharedFrom?.conflicts).toEqual([
      expect.objectContaining({ field: 'note', kept: 'my own reading', imported: 'the agent never asked for consent' }),
    ]);
    // The empty label and step note were filled in; the note text stayed the recipient's.
    const stored = (await notes.all())[0]!;
    expect(stored.note).toBe('my own reading');
    expect(stored.label).toBe('agent error');
  });

  it('a version 1 link (the episode alone) still opens, with no context', () => {
    const json = jsonDumps(records[2]!.raw);
    const split = splitSharedText(decodeSharedEpisode(encodePayload(json)));
    expect(split).toEqual({ episode: json, context: null });
  });

  it('damaged context fields are dropped with a reason; the episode still opens', () => {
    const text = shareText('[]', { file: 'a.json', index: 2, step: 1, notes: null, edits: [] })
      .replace('"notes":null', '"notes":{"fingerprint":"nope"}')
      .replace('"edits":[]', '"edits":"rm -rf"');
    const { context } = splitSharedText(text);
    const r = readShareContext(context!);
    expect(r.ctx).toEqual({ file: 'a.json', index: 2, step: 1, notes: null, edits: [] });
    expect(r.problems).toEqual([expect.stringMatching(/notes were left out .*fingerprint/), 'its what-if edits are not a list of edits and were left out']);
    expect(readShareContext('{not json').problems).toEqual(['its context (file name, notes, edits) is not JSON']);
    expect(() => splitSharedText(`${SHARE_MAGIC}{"v":2}`)).toThrow(/damaged/);
  });
});

describe('filters, search and sort in the link of a run', () => {
  it('round-trip through the fragment and restore on open', () => {
    const view = {
      filters: { failedOnly: true, reason: 'db-mismatch' as const, taskId: 4 },
      sort: { key: 'reward' as const, desc: true },
      query: 'refund & exchange',
      label: 'agent error' as const,
    };
    const hash = formatLink({ ...EMPTY_LINK, sample: 'retail-sample', episode: 2, step: 1, ...viewToLink(view) });
    expect(hash).toBe('#sample=retail-sample&episode=2&step=1&failed=1&reason=db-mismatch&task=4&label=agent%20error&q=refund%20%26%20exchange&sort=-reward');
    expect(viewFromLink(parseLink(hash))).toEqual(view);

    const store = createAppStore(portOpening([]));
    store.getState().restore(parseLink(hash));
    store.getState().receive(says.opened(1, 'retail-sample.json', []));
    const s = store.getState();
    expect([s.filters, s.sort, s.query, s.labelFilter]).toEqual([view.filters, view.sort, view.query, view.label]);
  });

  it('values the app does not know are dropped, defaults leave nothing in the link', () => {
    expect(viewFromLink(parseLink('#sort=-rm&reason=<script>&label=x&task=-1'))).toEqual({
      filters: { failedOnly: false, reason: null, taskId: null },
      sort: { key: 'index', desc: false },
      query: '',
      label: null,
    });
    expect(viewToLink({ filters: { failedOnly: false, reason: null, taskId: null }, sort: { key: 'index', desc: false }, query: '  ', label: null })).toEqual(
      {},
    );
  });
});

describe('a link to a local file this browser does not keep', () => {
  it('asks for the file, then goes to the place and filters the link names', () => {
    const opened: RunSource[] = [];
    const store = createAppStore(portOpening(opened));
    const s = store.getState;
    s().restore(parseLink('#file=my%20run.json&episode=3&step=2&failed=1'));
    expect(opened.at(-1)).toEqual({ kind: 'stored', name: 'my run.json' });
    s().receive(says.failed(1, 'my run.json', 'it is no longer kept in this browser; open the file again'));
    expect(s().fileRequest).toMatchObject({ name: 'my run.json', place: { episode: 3, step: 2 } });
    expect(s().notices).toEqual([]);
    s().openFile(new File(['[]'], 'my run.json'));
    expect(opened.at(-1)?.kind).toBe('file');
    expect(s().fileRequest).toBeNull();
    const headers = Array.from({ length: 5 }, (_, i) => ({
      index: i,
      taskId: i,
      trial: 0,
      recordedReward: 0,
      turns: 1,
      problem: null,
      extra: {},
      fingerprint: String(i).repeat(64),
    }));
    s().receive(says.opened(2, 'my run.json', headers));
    expect([s().selected, s().step, s().filters.failedOnly]).toEqual([3, 2, true]);
  });
});
