// Names a client gives to stored records (transforms, sources, PATs) are shown in lists, logs and
// the platform's UI: characters that are invisible or reorder the text around them would let one
// name pass for another. Refused: control characters (C0, DEL, C1 — NUL among them) and the
// Unicode bidirectional formatting characters (UAX #9: LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI,
// PDI, LRM, RLM, ALM), which can make "txt.exe" display as "exe.txt".

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The first unsafe character of `name` as `U+XXXX`, or null when there is none. */
export function unsafeNameCharacter(name: string): string | null {
  const m = UNSAFE.exec(name);
  return m === null ? null : `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Case-insensitive name equality, as the platform's unique names compare (the list's `name eq` too). */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
