// dateFormat's inputFormat / outputFormat (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-format): a SimpleDateFormat
// pattern or one of the named constructs ISO8601, LDAP, PEOPLE_SOFT, EPOCH_TIME_JAVA,
// EPOCH_TIME_WIN32. Decisions: docs/decisions.md.

import { TransformsError } from '../../errors/index.js';
import { utcMillis } from './calendar.js';
import { ISO8601_FORMAT } from './iso8601.js';
import { compileSimpleDateFormat, type ParseOptions } from './simple-date-format.js';

export interface DateFormat {
  /** The named construct or the pattern as written. */
  readonly name: string;
  /** Epoch milliseconds of `text`; throws EVAL_DATE_PARSE. */
  parse(text: string, options: ParseOptions): number;
  /**
   * Epoch milliseconds of `text`, or null when the text is not of this format — what dateFormat
   * gives for such an input (observed on a tenant; docs/decisions.md, "Dates"). A date it reads but
   * cannot hold (D3) still throws EVAL_DATE_PARSE.
   */
  read(text: string, options: ParseOptions): number | null;
  format(epochMs: number): string;
}

type Format = Omit<DateFormat, 'read'>;

/** `format` with `read`: its parse, an unreadable text (EVAL_DATE_PARSE not marked `beyondRange`) null. */
function readable(format: Format): DateFormat {
  return Object.freeze({
    ...format,
    read(text: string, options: ParseOptions): number | null {
      try {
        return format.parse(text, options);
      } catch (error) {
        if (error instanceof TransformsError && error.code === 'EVAL_DATE_PARSE' && error.details?.beyondRange !== true) return null;
        throw error;
      }
    },
  });
}

export const NAMED_DATE_FORMATS = ['ISO8601', 'LDAP', 'PEOPLE_SOFT', 'EPOCH_TIME_JAVA', 'EPOCH_TIME_WIN32'] as const;

/** Milliseconds between 1601-01-01 (the Windows FILETIME epoch) and 1970-01-01. */
const WIN32_EPOCH_OFFSET_MS = 11_644_473_600_000n;
const TICKS_PER_MS = 10_000n;
/** java.util.Date's usable range in JavaScript: ±8.64e15 ms. */
const MAX_MS = 8_640_000_000_000_000n;

function parseError(text: string, name: string, reason: string): TransformsError {
  return new TransformsError('EVAL_DATE_PARSE', `Unparseable date: "${text}" (${name}: ${reason})`, {
    details: { input: text, format: name },
  });
}

/** Long.parseLong: an optional sign and decimal digits, nothing else (no blanks, no decimals). */
function parseLong(text: string, name: string): bigint {
  if (!/^[+-]?\d{1,19}$/.test(text)) throw parseError(text, name, 'not a whole number');
  return BigInt(text);
}

function inRange(ms: bigint, text: string, name: string): number {
  if (ms > MAX_MS || ms < -MAX_MS) {
    throw new TransformsError('EVAL_DATE_PARSE', `Unparseable date: "${text}" (${name}: outside the representable date range)`, {
      details: { input: text, format: name, beyondRange: true },
    });
  }
  return Number(ms);
}

const LDAP_PATTERN = 'yyyyMMddHHmmss.Z';
const LDAP_FORMAT = compileSimpleDateFormat(LDAP_PATTERN);
/** LDAP GeneralizedTime as directories send it: 20201028120000Z, 20201028120000.0Z, …+0100. */
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(?:[.,](\d{1,9}))?(Z|[+-]\d{2}(?:\d{2})?)?$/;

function parseLdap(text: string, options: ParseOptions): number {
  const m = GENERALIZED_TIME.exec(text);
  if (!m) return LDAP_FORMAT.parse(text, options);
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const local = utcMillis(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5] ?? 0), Number(m[6] ?? 0), ms);
  const zone = m[8];
  if (zone === undefined || zone === 'Z') return local;
  const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5) || 0);
  return local - (zone.startsWith('-') ? -minutes : minutes) * 60_000;
}

const NAMED: Readonly<Record<(typeof NAMED_DATE_FORMATS)[number], Format>> = {
  // Reads and writes yyyy-MM-dd'T'HH:mm:ss.SSSX, the documented pattern, as SimpleDateFormat
  // does: a tenant read only the full form with milliseconds (decision "ISO8601 Z vs X"). The
  // lenient reader of dateMath and dateCompare (./iso8601.ts) is not this one.
  ISO8601: { name: 'ISO8601', parse: (text, o) => ISO8601_FORMAT.parse(text, o), format: (ms) => ISO8601_FORMAT.format(ms) },
  // Formats with the documented pattern yyyyMMddHHmmss.Z; parses that pattern and real
  // GeneralizedTime values, which the documented pattern alone cannot read.
  LDAP: { name: 'LDAP', parse: parseLdap, format: (ms) => LDAP_FORMAT.format(ms) },
  PEOPLE_SOFT: (() => {
    const f = compileSimpleDateFormat('MM/dd/yyyy');
    return { name: 'PEOPLE_SOFT', parse: (text: string, o: ParseOptions) => f.parse(text, o), format: (ms: number) => f.format(ms) };
  })(),
  EPOCH_TIME_JAVA: {
    name: 'EPOCH_TIME_JAVA',
    parse: (text) => inRange(parseLong(text, 'EPOCH_TIME_JAVA'), text, 'EPOCH_TIME_JAVA'),
    format: (ms) => String(ms),
  },
  EPOCH_TIME_WIN32: {
    name: 'EPOCH_TIME_WIN32',
    // 100-ns ticks since 1601-01-01; sub-millisecond ticks are dropped (floor), as Date has none.
    parse: (text) => {
      const ticks = parseLong(text, 'EPOCH_TIME_WIN32');
      const q = ticks / TICKS_PER_MS;
      const floor = ticks < 0n && q * TICKS_PER_MS !== ticks ? q - 1n : q;
      return inRange(floor - WIN32_EPOCH_OFFSET_MS, text, 'EPOCH_TIME_WIN32');
    },
    format: (ms) => String((BigInt(ms) + WIN32_EPOCH_OFFSET_MS) * TICKS_PER_MS),
  },
};

const READABLE = Object.fromEntries(NAMED_DATE_FORMATS.map((name) => [name, readable(NAMED[name])])) as Readonly<
  Record<(typeof NAMED_DATE_FORMATS)[number], DateFormat>
>;

export function isNamedDateFormat(name: string): name is (typeof NAMED_DATE_FORMATS)[number] {
  return (NAMED_DATE_FORMATS as readonly string[]).includes(name);
}

/**
 * A named construct (exact, case-sensitive name) or a SimpleDateFormat pattern. An invalid
 * pattern throws EVAL_ILLEGAL_ARGUMENT with the offending position in `details`.
 */
export function compileDateFormat(nameOrPattern: string): DateFormat {
  if (isNamedDateFormat(nameOrPattern)) return READABLE[nameOrPattern];
  const f = compileSimpleDateFormat(nameOrPattern);
  return readable({ name: nameOrPattern, parse: (text: string, o: ParseOptions) => f.parse(text, o), format: (ms: number) => f.format(ms) });
}
