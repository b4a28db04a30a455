/**
 * Text from a results file is untrusted: escape sequences in it must never reach the terminal
 * (a file could retitle it, clear it or write the clipboard with OSC 52). C0 and C1 controls,
 * DEL and bidi overrides are shown as visible escapes; newlines and tabs inside a cell too.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Writes to stdout; a reader that went away (`| head -1`) ends the program quietly with
 * status 0, as Unix tools do, instead of an EPIPE stack trace.
 */
export function installPipeGuard(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
