/**
 * Finds the objects of a top-level JSON list in UTF-8 bytes as they arrive, chunk by chunk, so a
 * file can be read without ever holding its whole text. It only finds where each element begins and
 * ends (brackets and braces outside strings, backslash escapes inside them: every byte it looks at is
 * ASCII, and UTF-8 never uses an ASCII byte inside a longer character); the elements themselves are
 * parsed by `parseListElement`, which checks them exactly as `json.loads` would.
 *
 * It reads only the plain case: a UTF-8 byte-order mark or none, `[`, objects separated by commas
 * (JSON whitespace around them), `]`, whitespace. Anything else — an empty list, an element that is
 * not an object, a stray character between elements, text after the list, a file that ends early —
 * makes it stop and say so (`push`/`end` return false): the caller then reads the whole text the
 * careful way (`scanList`), which locates and explains the damage.
 */
export class ListSplitter {
  /** 0 before `[`, 1 after `[`, 2 in an element, 3 after an element, 4 after a comma, 5 after `]`, -1 stopped. */
  private state = 0;
  /** Bytes seen in earlier chunks. */
  private base = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Where the element being read began (absolute byte offset), and its bytes from earlier chunks. */
  private elementStart = 0;
  private pieces: Uint8Array[] = [];
  /** How many bytes of a byte-order mark began the bytes. */
  private bom = 0;

  /**
   * `element` gets each complete element's bytes (in the pieces they came in, so a long element is
   * not copied into one buffer) with its absolute byte range (`start` inclusive, `end` exclusive,
   * counted from the first byte pushed, a byte-order mark included); returning false stops the split.
   */
  constructor(private readonly element: (parts: readonly Uint8Array[], start: number, end: number) => boolean) {}

  /** False once the bytes are not a plain list of objects (or `element` said stop). */
  get ok(): boolean {
    return this.state !== -1;
  }

  /** The next bytes; the splitter may keep a view of `chunk` until its element ends, so `chunk` must not be written again. */
  push(chunk: Uint8Array): boolean {
    if (this.state === -1) return false;
    const n = chunk.length;
    let i = 0;
    // Where the element under way began in this chunk (0 when it began in an earlier one).
    let from = 0;
    while (i < n) {
      if (this.state === 2) {
        if (this.inString) {
          if (this.escaped) {
            this.escaped = false;
            i++;
          }
          // To the closing quote: the next quote (found natively) not escaped, i.e. not after an odd run of
          // backslashes (escapes pair up from the left, and the run is bounded by `i`, where no escape is pending).
          for (;;) {
            const q = chunk.indexOf(0x22, i);
            if (q === -1) {
              // No quote in the rest of the chunk: an odd run of backslashes at its end escapes the next chunk's first byte.
              let k = 0;
              while (n - 1 - k >= i && chunk[n - 1 - k] === 0x5c) k++;
              this.escaped = k % 2 === 1;
              i = n;
              break;
            }
            let k = 0;
            while (q - 1 - k >= i && chunk[q - 1 - k] === 0x5c) k++;
            i = q + 1;
            if (k % 2 === 0) {
              this.inString = false;
              break;
            }
          }
          continue;
        }
        // Outside strings: look for the next quote or bracket.
        for (; i < n; i++) {
          const b = chunk[i]!;
          if (b === 0x22) {
            this.inString = true;
            i++;
            break;
          }
          if (b === 0x7b || b === 0x5b) this.depth++;
          else if (b === 0x7d || b === 0x5d) {
            this.depth--;
            if (this.depth === 0) {
              i++;
              const end = this.base + i;
              const parts = [...this.pieces, chunk.subarray(from, i)];
              this.pieces = [];
              this.state = 3;
              if (!this.element(parts, this.elementStart, end)) return this.stop();
              break;
            }
          }
        }
        continue;
      }
      const b = chunk[i]!;
      // A UTF-8 byte-order mark (EF BB BF) at the very start, possibly cut between chunks. One begun
      // must be whole: a cut one is bytes that are not UTF-8 (U+FFFD in the whole text), not a mark
      // followed by whitespace or `[`.
      if (this.state === 0 && this.bom < 3 && (this.bom > 0 || (this.base + i === 0 && b === BOM[0]))) {
        if (b !== BOM[this.bom]) return this.stop();
        this.bom++;
        i++;
        continue;
      }
      if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
        i++;
        continue;
      }
      switch (this.state) {
        case 0:
          if (b !== 0x5b) return this.stop();
          this.state = 1;
          i++;
          continue;
        case 1:
        case 4:
          if (b !== 0x7b) return this.stop();
          this.state = 2;
          this.depth = 1;
          this.elementStart = this.base + i;
          from = i;
          i++;
          continue;
        case 3:
          if (b === 0x2c) this.state = 4;
          else if (b === 0x5d) this.state = 5;
          else return this.stop();
          i++;
          continue;
        default:
          return this.stop();
      }
    }
    // A view, not a copy: the caller's chunks are never written again (a file's bytes as read), and pieces that
    // follow one another in one buffer can then be decoded as one.
    if (this.state === 2) this.pieces.push(chunk.subarray(from));
    this.base += n;
    return true;
  }

  /** True when the bytes were a whole plain list of objects (see the class comment). */
  end(): boolean {
    if (this.state !== 5) this.stop();
    return this.state === 5;
  }

  private stop(): false {
    this.state = -1;
    this.pieces = [];
    return false;
  }
}

const BOM = [0xef, 0xbb, 0xbf] as const;
