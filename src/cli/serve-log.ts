// The log of `serve` on stderr: a line a person reads (`--log-format text`, the default) or
// pino's JSON lines (`--log-format json`) for a log collector, at `--log-level`. The server writes
// one line per request, already redacted (src/api/request-log.ts); this module only renders.

import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LABELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields that the text line shows in its own way, or not at all. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'method', 'url', 'statusCode', 'responseTime', 'code', 'detailCode', 'trackingId', 'error', 'err']);

const two = (n: number) => String(n).padStart(2, '0');

function clock(time: unknown): string {
  const d = new Date(typeof time === 'number' ? time : Date.now());
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function value(v: unknown): string {
  return typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
}

/**
 * One pino record as a line: `12:04:05.123 INFO  GET /v3/sources 200 3.1 ms`; a failed request
 * adds its error code, message and trackingId; an internal error its stack, indented.
 */
export function formatLogLine(record: Record<string, unknown>): string {
  const level = (LABELS[record.level as number] ?? String(record.level)).padEnd(5);
  let line = `${clock(record.time)} ${level} ${String(record.msg ?? '')}`;
  if (typeof record.code === 'string') line += ` ${record.code}`;
  if (typeof record.error === 'string') line += `: ${record.error}`;
  if (typeof record.trackingId === 'string') line += ` (trackingId ${record.trackingId})`;
  for (const [k, v] of Object.entries(record)) if (!SHOWN.has(k) && v !== undefined) line += ` ${k}=${value(v)}`;
  const err = record.err as { stack?: unknown; message?: unknown } | undefined;
  if (err !== undefined && err !== null) line += `\n    ${String(err.stack ?? err.message).replace(/\n/g, '\n    ')}`;
  return `${line}\n`;
}

/** The logger of `serve`, writing its lines through `write` (stderr). */
export function serveLogger(level: LogLevel, format: LogFormat, write: (text: string) => void): FastifyBaseLogger {
  const stream =
    format === 'json'
      ? { write: (line: string) => write(line) }
      : {
          write: (line: string) => {
            let record: Record<string, unknown>;
            try {
              record = JSON.parse(line) as Record<string, unknown>;
            } catch {
              return write(line);
            }
            write(formatLogLine(record));
          },
        };
  return pino({ level }, stream) as FastifyBaseLogger;
}
