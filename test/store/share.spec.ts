import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { createAppStore } from '../../src/store/app-store';
import { parseLink } from '../../src/store/link';
import { episodeFingerprint } from '../../src/core/contract';
import type { ToWorker } from '../../src/protocol/messages';
import type { RunSource } from '../../src/protocol/wire-types';
import { encodePayload as encodeEpisode } from '../../src/formats/share-codec';
import { decodeSharedEpisode as decodeEpisode, MAX_SHARED_JSON_BYTES, sharePayload, splitSharedText } from '../../src/worker/shared-episode';
import { deflateSync } from 'fflate';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';

const sample = readFileSync(join(resolve(import.meta.dirname, '../..'), 'sample-runs/runs/retail-sample.json'), 'utf8');

describe('sharing one episode in the link (no server)', () => {
  const records = readResultsFile(sample);

  it.each(records.map((r) => [r.index, r] as const))('episode %i survives encode → decode with Python number types intact', (_i, record) => {
    const json = jsonDumps(record.raw);
    const payload = encodeEpisode(json);
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(payload.length).toBeLessThan(json.length);
    expect(decodeEpisode(payload)).toBe(json);
    const again = readResultsFile(decodeEpisode(payload));
    expect(again).toHaveLength(1);
    expect(jsonDumps(again[0]!.raw)).toBe(json);
  });

  it('says a cut link is damaged', () => {
    const payload = encodeEpisode(jsonDumps(records[0]!.raw));
    expect(() => decodeEpisode(payload.slice(0, payload.length / 2))).toThrow(/damaged/);
    expect(() => decodeEpisode('not base64!')).toThrow(/damaged/);
    expect(() => decodeEpisode(`${payload.slice(0, 40)}A${payload.slice(41)}`)).toThrow(/damaged/);
  });

  const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

  it('refuses a decompression bomb once the output passes the cap', () => {
    // 1 GB of zeros deflates to about 1 MB: the decoder must stop at the cap, not at the end.
    const chunk = new Uint8Array(16 * 1024 * 1024);
    const bomb = b64url(deflateSync(chunk, { level: 9 }));
    expect(() => decodeEpisode(bomb, 8 * 1024 * 1024)).toThrow(/damaged \(it inflates to more than 8 MB/);
    expect(decodeEpisode(bomb, 16 * 1024 * 1024)).toHaveLength(16 * 1024 * 1024);
    expect(MAX_SHARED_JSON_BYTES).toBe(64 * 1024 * 1024);
  });

  it('says what is wrong with bytes that are not UTF-8', () => {
    expect(() => decodeEpisode(b64url(deflateSync(new Uint8Array([0x7b, 0xff, 0x7d]))))).toThrow(/not UTF-8/);
  });

  it('the store makes a fragment with ep=, and restoring it hands the payload to the worker to decode', () => {
    const opened: RunSource[] = [];
    let asked: ToWorker<'share-link'> | null = null;
    const { port } = fakePort((m) => {
      if (m.type === 'open-run') opened.push(m.source);
      if (m.type === 'share-link') asked = m;
    });
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('retail-sample');
    s().receive(
      says.opened(
        1,
        'retail-sample.json',
        records.map((r) => ({
          index: r.index,
          taskId: r.taskId,
          trial: r.trial,
          recordedReward: r.recordedReward,
          turns: 1,
          problem: null,
          extra: {},
          fingerprint: episodeFingerprint(r),
        })),
      ),
    );
    s().select(3, 2);
    s().shareEpisode();
    const req = asked as ToWorker<'share-link'> | null;
    expect(req).toMatchObject({ run: 1, episode: 3, context: { file: 'retail-sample.json', index: 3, step: 2, notes: null, edits: [] } });
    // The worker's part: the payload made from the episode's text and that context (the text itself never goes to the page).
    const json = jsonDumps(records[3]!.raw);
    s().receive({ type: 'share-link', run: 1, episode: 3, payload: sharePayload(json, req!.context), file: new Blob([json]), error: null });
    const fragment = s().share?.fragment;
    expect(s().share?.file?.size).toBe(new TextEncoder().encode(json).length);
    expect(fragment).toMatch(/^#ep=[A-Za-z0-9_-]+&episode=0&step=2$/);

    const other = createAppStore(port);
    other.getState().restore(parseLink(fragment!));
    const last = opened[opened.length - 1]!;
    expect(last.kind).toBe('shared');
    if (last.kind !== 'shared') return;
    expect(splitSharedText(decodeEpisode(last.payload)).episode).toBe(json);
  });
});
