import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import { domainMentions } from '../../../src/core/judge/detect/domain';
import type { EpisodeRecord } from '../../../src/core/model/episode/types';

/**
 * A system message names a domain's policy when `#`, any white space, then "<domain> agent policy" in any case
 * appear in it: the detection looks for the heading only where a `#` is, and must find exactly what the pattern
 * tried at every character finds.
 */
const PATTERN: Record<Domain, RegExp> = { retail: /#\s*retail agent policy/i, airline: /#\s*airline agent policy/i };

function headings(content: string): Domain[] {
  const record = {
    task: null,
    traj: [
      new Map<string, unknown>([
        ['role', 'system'],
        ['content', content],
      ]),
    ],
  } as unknown as EpisodeRecord;
  const seen: Domain[] = [];
  domainMentions(record, (d, name) => {
    if (name === 'policy heading') seen.push(d);
  });
  return seen;
}

const expected = (content: string): Domain[] => (['retail', 'airline'] as const).filter((d) => PATTERN[d].test(content));

it('finds a policy heading exactly where the pattern does', () => {
  const piece = fc.constantFrom(
    '#',
    '##',
    ' ',
    '\n',
    '\t',
    '\u00a0',
    '\u2028',
    'retail',
    'RETAIL',
    'Airline',
    'airline',
    ' agent',
    ' Agent',
    ' policy',
    ' POLICY',
    'x',
    'é',
    'ſ',
    'K',
    '#retail agent policy',
    '#  AIRLINE agent Policy',
    '#\n\tRetail Agent Policy',
    '#airline agent polic',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const content = pieces.join('');
      expect(headings(content)).toEqual(expected(content));
    }),
    { numRuns: 3000, seed: 36 },
  );
  // Cases by hand: a heading after another '#', after line breaks, a heading broken by a letter, none.
  for (const content of [
    '# Retail agent policy',
    '#retail agent policy',
    '## #  \n airline AGENT policy',
    '#retail agentx policy',
    'retail agent policy',
    '#',
    '',
  ])
    expect(headings(content)).toEqual(expected(content));
  expect(headings('## #  \n airline AGENT policy')).toEqual(['airline']);
});
