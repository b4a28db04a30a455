/** A results file read for a session: its records and what was tallied from each while it was read. */
import { FileTally } from '../judge/detect';
import { readResults, type ResultsFile } from '../model/episode/results-file';
import type { EpisodeRecord } from '../model/episode/types';
import { episodeHeader, unkeyedHeader, type EpisodeHeader } from '../view/summary';
import type { SessionMemory } from './session-types';

/** A results file read, with what was tallied while it was read (see `InspectSession.reader`). */
export class ReadFile {
  constructor(
    readonly file: ResultsFile,
    readonly tally: FileTally,
    readonly headers: EpisodeHeader[] | null,
    /** `file.records` (and the tally, the headers) still grow: the file is being read. */
    readonly growing = false,
  ) {}
}

/** What a session works out from each record while the file is read. */
export function tallying(memory: SessionMemory): { tally: FileTally; headers: EpisodeHeader[] | null; visit: (r: EpisodeRecord) => void } {
  const tally = new FileTally();
  const headers: EpisodeHeader[] | null = memory.headers ? [] : null;
  const header = memory.keysLater ? unkeyedHeader : episodeHeader;
  return {
    tally,
    headers,
    visit: (r) => {
      tally.add(r);
      if (headers) headers[r.index] = header(r);
    },
  };
}

/** Reads a session's source: a results file's text (episodes read lazily) or its episodes already read. */
export function readSource(source: string | readonly EpisodeRecord[], memory: SessionMemory): ReadFile {
  const t = tallying(memory);
  let file: ResultsFile;
  if (typeof source === 'string')
    file = readResults(source, {
      lazy: true,
      visit: t.visit,
      ...(memory.elementText && { elementText: memory.elementText }),
      ...(memory.byteOffset && { byteOffset: memory.byteOffset }),
    });
  else {
    file = { records: [...source], kind: 'tau-bench-results', notes: [] };
    file.records.forEach(t.visit);
  }
  return new ReadFile(file, t.tally, t.headers);
}
