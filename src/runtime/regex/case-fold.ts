// Java's case-insensitive matching with UNICODE_CASE (`(?iu)`), which is not Unicode's simple
// case folding (RE2's `(?i)`): java.util.regex compares a single character c with
// `toLowerCase(toUpperCase(ch)) == toLowerCase(toUpperCase(c))` (so ı and İ match i, but the
// Kelvin sign matches k only through its lower case), and a range [lo-hi] with "ch, its upper
// case, or the lower case of that is in the range". The classes this produces are explicit
// code-point sets, so RE2's own folding is never applied. Predefined classes (\w, \d, \p{…})
// are not folded at all, as in Java.

type Ranges = Array<[number, number]>;

interface FoldTable {
  chars: Int32Array;
  uppers: Int32Array;
  lowerUppers: Int32Array;
}

let table: FoldTable | undefined;

/**
 * Character.toUpperCase(int), the simple mapping. JavaScript applies the full mapping; where that
 * is several code points the simple one is the same letter's one-code-point form, which exists
 * only for the Greek letters with ypogegrammeni (ᾳ → ᾼ) — otherwise the letter is unchanged.
 */
function upper(cp: number): number {
  if ((cp >= 0x1f80 && cp <= 0x1faf) || cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) {
    return cp <= 0x1faf ? cp | 0x8 : cp + 9;
  }
  const s = String.fromCodePoint(cp).toUpperCase();
  const u = s.codePointAt(0)!;
  return s.length === (u > 0xffff ? 2 : 1) ? u : cp;
}

/** Character.toLowerCase(int): İ (U+0130) is the only letter whose full lower case is longer; its simple one is i. */
function lower(cp: number): number {
  if (cp === 0x130) return 0x69;
  const s = String.fromCodePoint(cp).toLowerCase();
  const l = s.codePointAt(0)!;
  return s.length === (l > 0xffff ? 2 : 1) ? l : cp;
}

/** Every code point whose upper case, or the lower case of that, is another code point (built once). */
function foldTable(): FoldTable {
  if (table) return table;
  const chars: number[] = [];
  const uppers: number[] = [];
  const lowerUppers: number[] = [];
  // Cased letters end below U+1E944 (Adlam); planes above have none.
  for (let cp = 0; cp < 0x1ec00; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const u = upper(cp);
    const lu = lower(u);
    if (u !== cp || lu !== cp) {
      chars.push(cp);
      uppers.push(u);
      lowerUppers.push(lu);
    }
  }
  table = { chars: Int32Array.from(chars), uppers: Int32Array.from(uppers), lowerUppers: Int32Array.from(lowerUppers) };
  return table;
}

function inRanges(ranges: Ranges, cp: number): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** The code points a literal c matches under (?iu) (Pattern.SingleU). */
export function foldSingleUnicode(cp: number): number[] {
  const u = upper(cp);
  const lu = lower(u);
  if (u === lu) return [cp];
  const t = foldTable();
  const out = new Set<number>([cp, lu]);
  for (let k = 0; k < t.chars.length; k++) if (t.lowerUppers[k] === lu) out.add(t.chars[k]!);
  return [...out];
}

/** Ranges widened as Pattern.CIRangeU matches them under (?iu). */
export function foldRangesUnicode(ranges: Ranges): Ranges {
  if (ranges.length === 0) return ranges;
  const t = foldTable();
  const extra: Ranges = [];
  for (let k = 0; k < t.chars.length; k++) {
    const ch = t.chars[k]!;
    if (!inRanges(ranges, ch) && (inRanges(ranges, t.uppers[k]!) || inRanges(ranges, t.lowerUppers[k]!))) extra.push([ch, ch]);
  }
  return [...ranges, ...extra];
}
