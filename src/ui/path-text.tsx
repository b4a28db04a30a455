import { Fragment } from 'react';
import { safeLabel } from './fold';

/** Where a field path may break: after `.`, `/` and `_`, and before `[`. */
const BREAKS = /(?<=[./_])|(?=\[)/;

/**
 * A field path (`reservations.flights[0].status`, untrusted text) as text that wraps only between
 * its parts: a `<wbr>` after each separator, none inside a name (with `break-words` around it, a
 * part longer than the column still breaks rather than overflows).
 */
export function PathText({ path, max = 200 }: { path: string; max?: number }) {
  const parts = safeLabel(path, max)
    .split(BREAKS)
    .filter((p) => p !== '');
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </>
  );
}
