import { Fragment } from 'react';
import { safeLabel } from './fold';

/** Where an id may break: after `]`, `|`, `_`, `-`, `:` and `/`, and before `[` (`[mobile_data_issue]data_mode_off|…[PERSONA:None]`). */
const BREAKS = /(?<=[\]|_\-:/])|(?=\[)/;

/**
 * `id` cut to at most `max` characters in the middle, keeping its end: the head, `…`, the tail — the id's last
 * bracketed part where it takes at most half (a telecom id's `[PERSONA:Easy]`), else its last characters (a third, at
 * most 16). Whole when it fits.
 */
export function abbreviateId(id: string, max: number): string {
  const chars = [...id];
  if (chars.length <= max) return id;
  const group = /\[[^[\]]*\]$/.exec(id)?.[0];
  const tail = group !== undefined && [...group].length <= Math.floor(max / 2) ? [...group].length : Math.min(16, Math.floor((max - 1) / 3));
  return `${chars.slice(0, max - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

function Broken({ text }: { text: string }) {
  return (
    <>
      {text
        .split(BREAKS)
        .filter((p) => p !== '')
        .map((p, i) => (
          <Fragment key={i}>
            {i > 0 && <wbr />}
            {p}
          </Fragment>
        ))}
    </>
  );
}

/**
 * A task id (untrusted text) shown whole where it fits in `max` characters, wrapping between its parts; a longer one
 * abbreviated in the middle (`abbreviateId`) on screen, while the whole id is the element's title (on hover), what a
 * screen reader reads, and what copying the text gives (the abbreviation cannot be selected).
 */
export function LongId({ id, max }: { id: string; max: number }) {
  const whole = safeLabel(id, 2000);
  const shown = abbreviateId(whole, max);
  if (shown === whole) return <Broken text={whole} />;
  return (
    <>
      <span aria-hidden="true" className="select-none">
        <Broken text={shown} />
      </span>
      <span className="sr-only">{whole}</span>
    </>
  );
}
