import { describe, expect, it } from 'vitest';
import { EMPTY_LINK, formatLink, parseLink } from '../../src/store/link';

describe('link fragment', () => {
  it('round-trips run, data, episode and step', () => {
    const link = {
      run: 'https://example.org/runs/a&b.json?x=1',
      sample: null,
      file: null,
      ep: null,
      data: 'https://raw.example.org/tau-bench',
      episode: 12,
      step: 4,
    };
    const hash = formatLink(link);
    expect(hash).toMatch(/^#run=https:\/\/example\.org\/runs\/a%26b\.json%3Fx%3D1&data=https:\/\/raw\.example\.org\/tau-bench&episode=12&step=4$/);
    expect(parseLink(hash)).toEqual(link);
  });

  it('carries a sample by name and drops the step without an episode', () => {
    expect(formatLink({ ...EMPTY_LINK, sample: 'retail-sample', step: 3 })).toBe('#sample=retail-sample');
  });

  it('ignores malformed numbers', () => expect(parseLink('#episode=abc&step=-1')).toEqual(EMPTY_LINK));
});

describe('relative run= and data= addresses', () => {
  it('resolve against the page: a path or a relative name is the app’s own server; other schemes stay unusable', async () => {
    const { resolveLinkUrl, originOf } = await import('../../src/store/consent');
    const page = 'https://team.example/inspect/index.html#run=runs/x.json';
    expect(resolveLinkUrl('/runs/x.json', page)).toBe('https://team.example/runs/x.json');
    expect(resolveLinkUrl('runs/x.json', page)).toBe('https://team.example/inspect/runs/x.json');
    expect(resolveLinkUrl('../data', page)).toBe('https://team.example/data');
    expect(resolveLinkUrl('https://elsewhere.example/r.json', page)).toBe('https://elsewhere.example/r.json');
    expect(originOf(resolveLinkUrl('javascript:alert(1)', page))).toBeNull();
    expect(resolveLinkUrl('runs/x.json', null)).toBe('runs/x.json');
  });
});
