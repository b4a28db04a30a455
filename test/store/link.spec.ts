import { describe, expect, it } from 'vitest';
import { EMPTY_LINK, formatLink, parseLink } from '../../src/store/link';

describe('link fragment', () => {
  it('round-trips run, data, episode and step', () => {
    const link = { run: 'https://example.org/runs/a&b.json?x=1', sample: null, file: null, ep: null, data: 'https://raw.example.org/tau-bench', episode: 12, step: 4 };
    const hash = formatLink(link);
    expect(hash).toMatch(/^#run=https:\/\/example\.org\/runs\/a%26b\.json%3Fx%3D1&data=https:\/\/raw\.example\.org\/tau-bench&episode=12&step=4$/);
    expect(parseLink(hash)).toEqual(link);
  });

  it('carries a sample by name and drops the step without an episode', () => {
    expect(formatLink({ ...EMPTY_LINK, sample: 'retail-sample', step: 3 })).toBe('#sample=retail-sample');
  });

  it('ignores malformed numbers', () => expect(parseLink('#episode=abc&step=-1')).toEqual(EMPTY_LINK));
});
