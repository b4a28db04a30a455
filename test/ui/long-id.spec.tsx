import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { abbreviateId, LongId } from '../../src/ui/long-id';

const TELECOM = '[mobile_data_issue]airplane_mode_on|data_saver_mode_on|user_abroad_roaming_disabled_on[PERSONA:None]';

describe('a long task id: whole where it fits, else abbreviated in the middle keeping its end', () => {
  it('keeps an id that fits; cuts a longer one to the length asked for, keeping its last bracketed part', () => {
    expect(abbreviateId('42', 5)).toBe('42');
    expect(abbreviateId(TELECOM, TELECOM.length)).toBe(TELECOM);
    const short = abbreviateId(TELECOM, 45);
    expect([...short]).toHaveLength(45);
    expect(short).toBe('[mobile_data_issue]airplane_mo…[PERSONA:None]');
    // No bracketed end that fits in half: the last third of the characters (at most 16).
    const plain = 'a'.repeat(30) + 'b'.repeat(30);
    expect(abbreviateId(plain, 31)).toBe(`${'a'.repeat(20)}…${'b'.repeat(10)}`);
    // Characters, not UTF-16 units: an astral character is never split.
    expect(abbreviateId('😀'.repeat(40), 10)).toBe(`${'😀'.repeat(6)}…${'😀'.repeat(3)}`);
  });

  it('breaks between the id’s parts; an abbreviation is hidden from assistive technology, which reads (and copies) the whole id', () => {
    expect(renderToStaticMarkup(<LongId id="[mms_issue]bad_vpn[PERSONA:Easy]" max={100} />)).toBe(
      '[mms_<wbr/>issue]<wbr/>bad_<wbr/>vpn<wbr/>[PERSONA:<wbr/>Easy]',
    );
    const html = renderToStaticMarkup(<LongId id={TELECOM} max={45} />);
    expect(html).toContain('<span aria-hidden="true" class="select-none">');
    expect(html).toContain(`<span class="sr-only">${TELECOM}</span>`);
  });

  it('stays text: markup and invisible characters in an id are shown, never interpreted', () => {
    const html = renderToStaticMarkup(<LongId id={'<img src=x onerror=alert(1)>\u202e'} max={100} />);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('\u202e');
  });
});
