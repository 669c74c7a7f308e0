/** The charts' font size in px (svg.chart in the stylesheet). */
export const CHART_FONT = 11;

/**
 * How wide a chart's label is drawn, in px, at most: the widest glyphs of the common sans fonts (bold digits are
 * 0.7 em in DejaVu Sans), so a label placed by it never runs past its box in any of them.
 */
export function svgTextWidth(text: string, bold = false): number {
  return [...text].length * CHART_FONT * (bold ? 0.72 : 0.66);
}

/** The label's top and bottom around its baseline `y`, in px: ascent and descent of the chart's font. */
export function svgTextRows(y: number): { top: number; bottom: number } {
  return { top: y - CHART_FONT * 0.95, bottom: y + CHART_FONT * 0.3 };
}

/** The centre of a label `width` wide nearest `x` that keeps it within [low, high]. */
export function centreWithin(x: number, width: number, low: number, high: number): number {
  return Math.min(Math.max(x, low + width / 2), high - width / 2);
}

/** The labels of an axis to draw: from the first, each one that clears the last drawn by `gap` px. */
export function spacedLabels(
  labels: readonly { x: number; width: number }[],
  gap = 6,
  keepLast = true,
): boolean[] {
  const shown = labels.map(() => false);
  let edge = -Infinity;
  labels.forEach((l, i) => {
    if (l.x - l.width / 2 >= edge + gap) {
      shown[i] = true;
      edge = l.x + l.width / 2;
    }
  });
  // The last label (the newest run, the highest tick) matters most: it takes the place of the one it would hit.
  const last = labels.length - 1;
  if (keepLast && last > 0 && !shown[last]) {
    shown[last] = true;
    for (let i = last - 1; i >= 0; i--) {
      if (!shown[i]) continue;
      if (labels[i]!.x + labels[i]!.width / 2 + gap > labels[last]!.x - labels[last]!.width / 2)
        shown[i] = false;
      else break;
    }
  }
  return shown;
}

/** A rectangle on a chart, in px. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/**
 * Where a point's label goes: the first place around the point (up right, down right, up left, down left, right,
 * left, up, down) `offset` px off that stays within `bounds` and covers nothing in `taken`; else the place within
 * `bounds` that covers least. The label's box joins `taken`.
 */
export function placeLabel(
  text: string,
  point: { x: number; y: number },
  offset: number,
  bounds: Box,
  taken: Box[],
  bold = true,
): { x: number; y: number; anchor: 'start' | 'middle' | 'end' } {
  const width = svgTextWidth(text, bold);
  const ascent = CHART_FONT * 0.95;
  const { x, y } = point;
  const places = [
    { x: x + offset, y: y - offset, anchor: 'start' as const },
    { x: x + offset, y: y + offset + ascent, anchor: 'start' as const },
    { x: x - offset, y: y - offset, anchor: 'end' as const },
    { x: x - offset, y: y + offset + ascent, anchor: 'end' as const },
    { x: x + offset + 2, y: y + 4, anchor: 'start' as const },
    { x: x - offset - 2, y: y + 4, anchor: 'end' as const },
    { x, y: y - offset - 2, anchor: 'middle' as const },
    { x, y: y + offset + ascent + 2, anchor: 'middle' as const },
  ];
  const boxOf = (p: (typeof places)[number]): Box => {
    const left = p.anchor === 'start' ? p.x : p.anchor === 'end' ? p.x - width : p.x - width / 2;
    const rows = svgTextRows(p.y);
    return { left, right: left + width, top: rows.top, bottom: rows.bottom };
  };
  const inside = (b: Box) =>
    b.left >= bounds.left && b.right <= bounds.right && b.top >= bounds.top && b.bottom <= bounds.bottom;
  const scored = places
    .map((p) => ({ p, box: boxOf(p) }))
    .filter(({ box }) => inside(box))
    .map((c) => ({ ...c, covered: taken.reduce((sum, t) => sum + overlap(c.box, t), 0) }));
  const best = scored.find((c) => c.covered === 0) ?? scored.sort((a, b) => a.covered - b.covered)[0];
  if (best) {
    taken.push(best.box);
    return best.p;
  }
  // No place fits (a label wider than the chart): centred on the point, kept within the bounds.
  const cx = centreWithin(x, width, bounds.left, bounds.right);
  const cy = Math.min(Math.max(y, bounds.top + ascent), bounds.bottom - CHART_FONT * 0.3);
  return { x: cx, y: cy, anchor: 'middle' };
}
