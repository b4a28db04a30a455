import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { createAppStore } from '../../src/store/app-store';
import { parseLink } from '../../src/store/link';
import { episodeFingerprint, type RunSource } from '../../src/core/contract';
import type { EvaluatorPort } from '../../src/store/ports';
import { decodeEpisode, encodeEpisode } from '../../src/store/share-codec';

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
  });

  it('the store makes a fragment with ep=, and restoring it opens that episode as a file', async () => {
    const opened: RunSource[] = [];
    let asked: [number, number] | null = null;
    const port: EvaluatorPort = {
      openRun: (_run, source) => void opened.push(source),
      useFolder: () => undefined,
      useDataUrl: () => undefined,
      prioritize: () => undefined,
      search: () => undefined,
      view: () => undefined,
      episodeJson: (run, index) => void (asked = [run, index]),
      whatIf: () => undefined,
    };
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('retail-sample');
    s().runOpened(1, 'retail-sample.json', 'retail', 'why', records.map((r) => ({ index: r.index, taskId: r.taskId, trial: r.trial, recordedReward: r.recordedReward, turns: 1, problem: null, extra: {}, fingerprint: episodeFingerprint(r) })));
    s().select(3, 2);
    s().shareEpisode();
    expect(asked).toEqual([1, 3]);
    const json = jsonDumps(records[3]!.raw);
    s().episodeJsonArrived(1, 3, json);
    const fragment = s().share?.fragment;
    expect(fragment).toMatch(/^#ep=[A-Za-z0-9_-]+&episode=0&step=2$/);

    const other = createAppStore(port);
    other.getState().restore(parseLink(fragment!));
    const last = opened[opened.length - 1]!;
    expect(last.kind).toBe('file');
    if (last.kind !== 'file') return;
    expect(await last.file.text()).toBe(json);
  });
});
