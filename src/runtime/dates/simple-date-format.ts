// java.text.SimpleDateFormat in the platform's zone, GMT, en_US symbols, lenient
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-format): every
// pattern letter for format and parse. Decisions: docs/decisions.md.

import { TransformsError } from '../../errors/index.js';
import { MONTHS, WEEKDAYS, fieldsOf, pad, weekOfMonth, weekOfYear, type CalendarFields } from './calendar.js';
import { Cursor, newParsed, parseField, resolve } from './sdf-parse.js';

export interface ParseOptions {
  /** The evaluation instant: two-digit years resolve into the 100 years starting 80 years before it. */
  now: number;
  /** Receives the calendar fields as read (year, month, … before resolution): a diagnostic for tests. */
  fields?: Record<string, number>;
}

export interface SimpleDateFormat {
  readonly pattern: string;
  format(epochMs: number): string;
  /** Epoch milliseconds; throws EVAL_DATE_PARSE. Text after the pattern is ignored, as DateFormat.parse(String) does. */
  parse(text: string, options: ParseOptions): number;
}

type Token = { kind: 'literal'; text: string } | { kind: 'field'; letter: string; count: number };

const LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';

function illegal(message: string, pattern: string, position: number): TransformsError {
  return new TransformsError('EVAL_ILLEGAL_ARGUMENT', message, { details: { pattern, position } });
}

/** SimpleDateFormat.compile: quoted text, '' for a quote, runs of pattern letters. */
function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  const literal = (text: string): void => {
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'literal') last.text += text;
    else tokens.push({ kind: 'literal', text });
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        literal("'");
        i += 2;
        continue;
      }
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= pattern.length) throw illegal('Unterminated quote', pattern, i);
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j++;
      }
      literal(text);
      i = j + 1;
    } else if (/[A-Za-z]/.test(c)) {
      if (!LETTERS.includes(c)) throw illegal(`Illegal pattern character '${c}'`, pattern, i);
      let j = i;
      while (pattern[j] === c) j++;
      const count = j - i;
      if (c === 'X' && count > 3) throw illegal('invalid ISO 8601 format: length=' + count, pattern, i);
      tokens.push({ kind: 'field', letter: c, count });
      i = j;
    } else {
      literal(c);
      i++;
    }
  }
  return tokens;
}

function isNumeric(t: Token | undefined): boolean {
  if (t?.kind !== 'field') return false;
  if (t.letter === 'M' || t.letter === 'L') return t.count <= 2;
  return 'yYwWDdFuHkKhmsS'.includes(t.letter);
}

function formatField(letter: string, count: number, ms: number, f: CalendarFields): string {
  const yearOfEra = f.year > 0 ? f.year : 1 - f.year;
  switch (letter) {
    case 'G':
      return f.year > 0 ? 'AD' : 'BC';
    case 'y':
    case 'Y': {
      let y = yearOfEra;
      if (letter === 'Y') {
        const wy = weekOfYear(ms).weekYear;
        y = wy > 0 ? wy : 1 - wy;
      }
      return count === 2 ? pad(y % 100, 2) : pad(y, count);
    }
    case 'M':
    case 'L':
      if (count >= 4) return MONTHS[f.month]!;
      if (count === 3) return MONTHS[f.month]!.slice(0, 3);
      return pad(f.month + 1, count);
    case 'w':
      return pad(weekOfYear(ms).week, count);
    case 'W':
      return pad(weekOfMonth(ms), count);
    case 'D':
      return pad(f.dayOfYear, count);
    case 'd':
      return pad(f.day, count);
    case 'F':
      return pad(Math.floor((f.day - 1) / 7) + 1, count);
    case 'E':
      return count >= 4 ? WEEKDAYS[f.weekday]! : WEEKDAYS[f.weekday]!.slice(0, 3);
    case 'u':
      return pad(f.weekday === 0 ? 7 : f.weekday, count);
    case 'a':
      return f.hour < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(f.hour, count);
    case 'k':
      return pad(f.hour === 0 ? 24 : f.hour, count);
    case 'K':
      return pad(f.hour % 12, count);
    case 'h':
      return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'm':
      return pad(f.minute, count);
    case 's':
      return pad(f.second, count);
    case 'S':
      return pad(f.millisecond, count);
    case 'z':
      // The formatter's zone is GMT, as a tenant prints it (`z` → `GMT`):
      // TimeZone.getTimeZone("GMT").getDisplayName(…, Locale.US), checked against JDK 17.
      return count >= 4 ? 'Greenwich Mean Time' : 'GMT';
    case 'Z':
      return '+0000';
    default: // 'X': ISO 8601 zone, "Z" for a zero offset whatever the count.
      return 'Z';
  }
}

/** Compile a SimpleDateFormat pattern; an illegal letter or quote throws EVAL_ILLEGAL_ARGUMENT. */
export function compileSimpleDateFormat(pattern: string): SimpleDateFormat {
  const tokens = tokenize(pattern);
  const weekBased = tokens.some((t) => t.kind === 'field' && t.letter === 'w');
  return Object.freeze({
    pattern,
    format(epochMs: number): string {
      // The calendar fields are computed once per call; week fields only when a token needs them.
      const fields = fieldsOf(epochMs);
      let out = '';
      for (const t of tokens) out += t.kind === 'literal' ? t.text : formatField(t.letter, t.count, epochMs, fields);
      return out;
    },
    parse(text: string, options: ParseOptions): number {
      const cur = new Cursor(text);
      const parsed = newParsed();
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i]!;
        const ok =
          t.kind === 'literal'
            ? text.startsWith(t.text, cur.index) && ((cur.index += t.text.length), true)
            : parseField(t, cur, parsed, isNumeric(t) && isNumeric(tokens[i + 1]), options.now);
        if (!ok) {
          throw new TransformsError('EVAL_DATE_PARSE', `Unparseable date: "${text}" (pattern ${pattern}, position ${cur.index})`, {
            details: { input: text, pattern, position: cur.index },
          });
        }
      }
      if (options.fields) Object.assign(options.fields, parsed.values);
      const ms = resolve(parsed, weekBased, options.now);
      if (!Number.isFinite(ms)) {
        throw new TransformsError('EVAL_DATE_PARSE', `Unparseable date: "${text}" (out of range)`, {
          details: { input: text, pattern, beyondRange: true },
        });
      }
      return ms;
    },
  });
}
