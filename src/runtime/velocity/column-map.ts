// Positions in a rewritten template mapped back to the template as written (escapes.ts rewrites
// text on a line without moving lines: each rewrite shifts the columns after it on its line).

/**
 * The source column of a rewritten one: minus what the rewrites before it on its line added.
 * Each shift is one rewrite: [line, rewritten column after it, characters it added (negative: removed)].
 * Looked up by binary search over each line's shifts (every node's position is mapped back, and
 * a long template has as many shifts as nodes: a scan per lookup would be quadratic).
 */
export function columnMap(shifts: ReadonlyArray<readonly [number, number, number]>): (line: number, column: number) => number {
  const lines = new Map<number, { ends: number[]; added: number[] }>();
  for (const [line, end, added] of [...shifts].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    let entry = lines.get(line);
    if (!entry) lines.set(line, (entry = { ends: [], added: [] }));
    entry.ends.push(end);
    entry.added.push((entry.added.at(-1) ?? 0) + added);
  }
  return (line, column) => {
    const entry = lines.get(line);
    if (!entry) return column;
    // How many shifts of the line end at or before the column.
    let lo = 0;
    let hi = entry.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entry.ends[mid]! <= column) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? column : column - entry.added[lo - 1]!;
  };
}
