// The text rendering of serve's log records (--log-format text): one line a person reads.

import { describe, expect, it } from 'vitest';
import { formatLogLine, serveLogger } from '../../src/cli/serve-log.js';

const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();

describe('formatLogLine', () => {
  it('renders a request line as time, level and message', () => {
    expect(formatLogLine({ level: 30, time: at, pid: 1, hostname: 'h', reqId: 'req-1', method: 'GET', url: '/v3/sources', statusCode: 200, responseTime: 3.1, msg: 'GET /v3/sources 200 3.1 ms' })).toBe(
      '03:04:05.067 INFO  GET /v3/sources 200 3.1 ms\n',
    );
  });

  it("adds a failed request's code, message and trackingId", () => {
    const line = formatLogLine({ level: 40, time: at, msg: 'GET /v3/sources 401 1.9 ms', code: 'API_UNAUTHORIZED', detailCode: '401 Unauthorized', error: 'The Authorization header is missing.', trackingId: 'ab'.repeat(16) });
    expect(line).toBe(`03:04:05.067 WARN  GET /v3/sources 401 1.9 ms API_UNAUTHORIZED: The Authorization header is missing. (trackingId ${'ab'.repeat(16)})\n`);
  });

  it('indents the stack of an internal error and keeps other fields as key=value', () => {
    const line = formatLogLine({ level: 50, time: at, msg: 'An internal fault occurred.', code: 'API_INTERNAL', err: { message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' }, extra: 'two words' });
    expect(line).toBe('03:04:05.067 ERROR An internal fault occurred. API_INTERNAL extra="two words"\n    Error: boom\n        at f (x.ts:1:1)\n');
  });
});

describe('serveLogger', () => {
  it('writes text or JSON lines at the chosen level', () => {
    const text: string[] = [];
    const t = serveLogger('warn', 'text', (s) => text.push(s));
    t.info('hidden');
    t.warn('shown');
    expect(text).toHaveLength(1);
    expect(text[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN  shown\n$/);

    const json: string[] = [];
    const j = serveLogger('info', 'json', (s) => json.push(s));
    j.info({ statusCode: 200 }, 'a line');
    expect(JSON.parse(json[0]!)).toMatchObject({ level: 30, statusCode: 200, msg: 'a line' });

    const none: string[] = [];
    serveLogger('silent', 'text', (s) => none.push(s)).error('nothing');
    expect(none).toEqual([]);
  });
});
