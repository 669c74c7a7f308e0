/** A contender as a point to weigh: a lower `x` (cost, latency) is better, a higher `y` (score) is better. */
export interface ParetoPoint {
  x: number;
  y: number;
}

/**
 * The indices of the points on the Pareto front, cheapest first: those no other point beats on one axis without
 * losing on the other. Identical points are all on it, since neither beats the other.
 */
export function paretoFront(points: readonly ParetoPoint[]): number[] {
  const order = points
    .map((p, i) => ({ ...p, i }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
    .sort((a, b) => a.x - b.x || b.y - a.y || a.i - b.i);
  const front: number[] = [];
  let last: ParetoPoint | undefined;
  for (const p of order) {
    // Sorted by x, a point is beaten exactly when an earlier one scored as well, unless it is that point's twin.
    const twin = last !== undefined && p.x === last.x && p.y === last.y;
    if (last === undefined || p.y > last.y || twin) {
      front.push(p.i);
      last = p;
    }
  }
  return front;
}
