import { decodeResultsBytes, type RunSource } from '../core/contract';
import { loadStoredFile } from './data-sources';
import { decodeSharedEpisode, splitSharedText } from './shared-episode';
import { sampleNames, sampleRunText } from './sample';

export const sourceLabel = (s: RunSource): string =>
  s.kind === 'sample' ? `${s.name}.json` : s.kind === 'file' ? s.file.name : s.kind === 'stored' ? s.name : s.kind === 'shared' ? 'the episode shared in the link' : s.url;

/** The text of a results file from wherever the page says it is. */
/** `shared`: the context line of a version 2 shared link (file name, index, notes, edits), read on the page. */
export async function readRun(source: RunSource): Promise<{ text: string; label: string; shared?: string }> {
  switch (source.kind) {
    case 'sample': {
      const text = await sampleRunText(source.name);
      if (text === null) throw new Error(`there is no sample run named "${source.name}" (have: ${sampleNames.join(', ') || 'none'})`);
      return { text, label: `${source.name}.json` };
    }
    case 'file':
      return { text: decodeResultsBytes(new Uint8Array(await source.file.arrayBuffer())), label: source.file.name };
    case 'stored': {
      const file = await loadStoredFile();
      if (!file || file.name !== source.name) throw new Error('it is no longer kept in this browser; open the file again');
      return { text: decodeResultsBytes(new Uint8Array(await file.arrayBuffer())), label: file.name };
    }
    case 'shared': {
      const { episode, context } = splitSharedText(decodeSharedEpisode(source.payload));
      return { text: episode, label: 'the episode shared in the link', ...(context !== null && { shared: context }) };
    }
    case 'url': {
      let res: Response;
      try {
        res = await fetch(source.url);
      } catch (e) {
        throw new Error(`could not fetch it (${e instanceof Error ? e.message : String(e)}; offline, or the server does not allow cross-origin requests)`);
      }
      if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
      return { text: decodeResultsBytes(new Uint8Array(await res.arrayBuffer())), label: source.url };
    }
  }
}
