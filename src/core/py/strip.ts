// Python parity: str.strip() with no argument strips characters for which str.isspace() is True.
const PY_SPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export const pyStrip = (s: string): string => stripOf(s, PY_SPACE);

/** `s` without the characters of `chars` at either end (each a single UTF-16 unit). */
export function stripOf(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}
