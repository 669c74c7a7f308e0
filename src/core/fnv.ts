/**
 * The 32-bit FNV-1a hash of a text (its UTF-16 code units), as an unsigned integer: a stable number from a string
 * that needs no crypto module in the workflow sandbox. Bootstrap seeds, `--sample` ranks and schedule ids all use it,
 * so that a report, a sample and a schedule id follow from their text alone.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
