// "Did you mean …?": the known name closest to an unknown one, when it is close enough to be a
// typo. One helper for every place that names a suggestion — CLI options and commands, transform
// types, attribute keys, enum values, source and attribute names, reference ids — so that they
// all judge "close enough" alike.

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `unknown`, or undefined when none is within a typo's reach: at most
 * a third of the name's length in edits (and at least 2). A candidate that the name begins (at
 * least three characters typed) counts as distance 0, so an abbreviation finds its name.
 */
export function closestName(unknown: string, known: Iterable<string>): string | undefined {
  const reach = Math.max(2, Math.floor(unknown.length / 3));
  let best: string | undefined;
  let distance = Infinity;
  for (const candidate of known) {
    const prefix = candidate.startsWith(unknown) && unknown.length >= 3;
    // Lengths further apart than the reach cannot be within it: skipping them keeps a hostile
    // name of megabytes from costing a quadratic distance.
    if (!prefix && Math.abs(candidate.length - unknown.length) > reach) continue;
    const d = prefix ? 0 : levenshtein(unknown, candidate);
    if (d < distance) {
      best = candidate;
      distance = d;
    }
  }
  return best !== undefined && distance <= reach ? best : undefined;
}

/**
 * The tail a message naming an unknown name ends with — `; did you mean "firstValid"?` — or ""
 * when no known name is close. Messages say names as JSON strings, so the suggestion does too.
 */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : `; did you mean ${JSON.stringify(suggestion)}?`;
}
