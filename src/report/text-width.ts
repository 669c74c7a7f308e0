import { createRequire } from 'node:module';

type Width = (text: string) => number;

// string-width makes an Intl.Segmenter as it loads: ICU's set-up (~20 ms), with its modules' loading ~50 ms of every
// command's start, before its first line. Printable ASCII (most of what a table holds) is as wide as it is long and
// needs neither; string-width is loaded for the first other text, by `require` where Node requires ES modules
// (20.19+), and with this module on an older Node.
const requiresEsm = (process.features as { require_module?: boolean }).require_module === true;
let loaded: Width | undefined = requiresEsm ? undefined : (await import('string-width')).default;
const stringWidth: Width = (text) =>
  (loaded ??= (createRequire(import.meta.url)('string-width') as { default: Width }).default)(text);
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex
const ANSI_SPLIT = /(\u001b\[[0-9;]*m)/;
const RESET = '\u001b[0m';

/** Where a table cell may wrap: after a space, `_`, `/` or `-`, so ids and metric names break at their joints. */
export const CELL_BREAKS = /[\s_/-]/;

/** Where prose may wrap: at spaces only. */
export const PROSE_BREAKS = /\s/;

/** A string without its colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The columns a string takes in a terminal: wide (CJK) characters and emoji count 2, colour codes 0. */
export function visibleWidth(text: string): number {
  // Most cells are plain printable ASCII (no colour code: ESC is not printable): as wide as they are long.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const bare = stripAnsi(text);
  return PRINTABLE_ASCII.test(bare) ? bare.length : stringWidth(text);
}

/** A colour code (no width) or one grapheme with its width. */
type Piece = { code: string } | { text: string; width: number };

let segmenter: Intl.Segmenter | undefined;

function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (const part of text.split(ANSI_SPLIT)) {
    if (!part) continue;
    if (ANSI_SPLIT.test(part)) {
      pieces.push({ code: part });
      continue;
    }
    // Printable ASCII: each character is a grapheme one column wide.
    if (PRINTABLE_ASCII.test(part)) {
      for (const char of part) pieces.push({ text: char, width: 1 });
      continue;
    }
    for (const { segment } of (segmenter ??= new Intl.Segmenter()).segment(part))
      pieces.push({ text: segment, width: stringWidth(segment) });
  }
  return pieces;
}

const widthOf = (pieces: readonly Piece[]) => pieces.reduce((w, p) => w + ('width' in p ? p.width : 0), 0);

/**
 * How each printable ASCII character (from the space on) stands in a word, for one set of break opportunities:
 * 0 in a word, 1 a break the word before it keeps (`-`, `/`), 2 a break between words (a space).
 */
const asciiBreaks = new WeakMap<RegExp, Uint8Array>();
function asciiBreaksOf(breaks: RegExp): Uint8Array {
  let kinds = asciiBreaks.get(breaks);
  if (kinds) return kinds;
  kinds = new Uint8Array(0x7f - 0x20);
  for (let code = 0x20; code < 0x7f; code++) {
    const char = String.fromCharCode(code);
    kinds[code - 0x20] = breaks.test(char) ? (/\s/.test(char) ? 2 : 1) : 0;
  }
  asciiBreaks.set(breaks, kinds);
  return kinds;
}

/** The widest run of text between break opportunities: how narrow a column can get without cutting a word. */
export function longestWord(text: string, breaks: RegExp = CELL_BREAKS): number {
  // Plain printable ASCII, the common cell, by character code: every character is one grapheme one column wide.
  // A table of 100,000 rows spent a second here splitting each cell into graphemes.
  if (PRINTABLE_ASCII.test(text)) {
    const kinds = asciiBreaksOf(breaks);
    let [longest, word] = [0, 0];
    for (let i = 0; i < text.length; i++) {
      const kind = kinds[text.charCodeAt(i) - 0x20];
      if (kind === 2) {
        word = 0;
        continue;
      }
      if (++word > longest) longest = word;
      if (kind === 1) word = 0;
    }
    return longest;
  }
  let longest = 0;
  let word = 0;
  for (const piece of piecesOf(stripAnsi(text))) {
    if (!('width' in piece)) continue;
    if (/^\s$/.test(piece.text) && breaks.test(piece.text)) {
      word = 0;
      continue;
    }
    word += piece.width;
    longest = Math.max(longest, word);
    if (breaks.test(piece.text)) word = 0;
  }
  return longest;
}

/** The widest single grapheme: a column narrower than this cannot show the text at all. */
export function widestGrapheme(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return 1;
  return Math.max(1, ...piecesOf(text).map((p) => ('width' in p ? p.width : 0)));
}

const isSpace = (p: Piece) => 'text' in p && /^\s$/.test(p.text);

function trimEnd(pieces: Piece[]): Piece[] {
  let end = pieces.length;
  while (end > 0 && isSpace(pieces[end - 1]!)) end--;
  return pieces.slice(0, end);
}

/**
 * Wraps text into lines at most `width` columns wide (`next` for the lines after the first): at the last break
 * opportunity that fits, else mid-word. Colour codes survive: each line is closed with a reset and the next replays
 * the codes before it, so no colour bleeds into a table's borders. Text that fits comes back unchanged.
 */
export function wrapText(
  text: string,
  width: number,
  breaks: RegExp = CELL_BREAKS,
  next: number = width,
): string[] {
  if (visibleWidth(text) <= width) return [text];
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  /** The index in `line` after which it may break, or -1. */
  let breakAt = -1;
  for (const piece of piecesOf(text)) {
    // A line that wrapped starts at its next word; the first keeps its indent.
    if (lines.length > 0 && line.length === 0 && isSpace(piece)) continue;
    line.push(piece);
    if ('text' in piece && breaks.test(piece.text)) breakAt = line.length;
    while (widthOf(line) > (lines.length ? next : width)) {
      const cut = breakAt > 0 && breakAt < line.length ? breakAt : line.length - 1;
      if (cut <= 0 || widthOf(line.slice(0, cut)) === 0) break;
      lines.push(trimEnd(line.slice(0, cut)));
      line = line.slice(cut);
      while (line.length > 0 && isSpace(line[0]!)) line.shift();
      breakAt = -1;
      line.forEach((p, i) => {
        if ('text' in p && breaks.test(p.text)) breakAt = i + 1;
      });
    }
  }
  if (line.length > 0) lines.push(trimEnd(line));
  const coloured = lines.some((l) => l.some((p) => 'code' in p));
  let replay = '';
  return lines.map((l) => {
    const body = l.map((p) => ('code' in p ? p.code : p.text)).join('');
    const out = coloured ? `${replay}${body}${RESET}` : body;
    replay += l.flatMap((p) => ('code' in p ? [p.code] : [])).join('');
    return out;
  });
}

/** Cuts text to at most `width` columns, ending in `…` when something was cut; colour codes are closed. */
export function truncateText(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  const kept: Piece[] = [];
  for (const piece of piecesOf(text)) {
    if ('width' in piece && widthOf(kept) + piece.width > width - 1) break;
    kept.push(piece);
  }
  const coloured = kept.some((p) => 'code' in p);
  return kept.map((p) => ('code' in p ? p.code : p.text)).join('') + '…' + (coloured ? RESET : '');
}

/** Wraps one line of prose to `width` (none: as it is), indenting every line after the first by `indent` spaces. */
export function wrapProse(text: string, width: number | undefined, indent = 0): string {
  if (width === undefined) return text;
  const pad = ' '.repeat(indent);
  const lines = wrapText(text, width, PROSE_BREAKS, Math.max(1, width - indent));
  return lines.map((l, i) => (i ? pad + l : l)).join('\n');
}
