// Responses over real sockets are checked against /openapi.json as contract.ts checks those of
// inject(), so that tests driving a listening server (the official SDK, the tenant providers,
// the snapshot command, a browser, a `serve` child process) cannot pass on an answer the
// document does not describe:
// - tapListener() watches what an in-process server writes to its sockets. A violation is
//   recorded and fails the test during which it happened (an afterEach hook of this module) or,
//   failing that, the server's close();
// - contractFetch() is a fetch for servers in another process: it fetches their /openapi.json
//   once and throws on an undocumented answer;
// - contractProxy() stands in front of a server in another process for clients in yet another
//   one (the CLI's `--tenant`), as a validating proxy: violations fail the current test.

import { type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, ContractValidator, type Listener } from './contract.js';

const violations: string[] = [];

/** The violations recorded since the last call, removed from the record. */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

/** Whether this runs under vitest: the benchmarks share the test servers, without the check. */
export const UNDER_TEST = process.env.VITEST !== undefined;

// A test server in a process of its own (test/e2e/snapshot-tenant-server.ts) is outside vitest's
// runner: it reports its violations when it closes, to the test that started it.
if (UNDER_TEST && process.env.IDT_TEST_SERVER_PROCESS === undefined) {
  // Imported here only: vitest refuses to be imported outside its runner.
  const { afterEach } = await import('vitest');
  afterEach(() => {
    const found = takeViolations();
    if (found.length > 0) throw new Error(`a socket response not documented by /openapi.json:\n${found.join('\n')}`);
  });
}

const lowerCase = (headers: OutgoingHttpHeaders | undefined): Record<string, string | string[] | number | undefined> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

const skipped = (method: string, url: string) => method === 'HEAD' || url.startsWith('/openapi.json');

/**
 * Check every response `server` writes to a socket. The validator is built before the tap is
 * installed, so each response is checked when it has been written, before its client reads it.
 */
export function tapListener(server: Server, listener: Listener, validator: ContractValidator): void {
  if (!UNDER_TEST) return;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    if (skipped(method, url)) return;
    const chunks: Buffer[] = [];
    let head: OutgoingHttpHeaders | undefined;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const { write, end, writeHead } = res;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null && !Array.isArray(a));
      if (headers !== undefined) head = headers as OutgoingHttpHeaders;
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['writeHead'];
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    res.once('finish', () => {
      const answer: Answer = { statusCode: res.statusCode, headers: { ...lowerCase(head), ...lowerCase(res.getHeaders()) }, body: Buffer.concat(chunks).toString('utf8') };
      violations.push(...validator.check(listener, method, url, answer));
    });
  });
}

export interface ListenerUrls {
  readonly baseUrl: string;
  readonly loginUrl?: string;
  readonly nonEmployeeUrl?: string;
}

/**
 * A fetch that checks each answer of the server at `urls` against the /openapi.json that server
 * serves, and throws on one it does not document. Requests to other origins pass unchecked.
 */
export function contractFetch(urls: ListenerUrls): typeof fetch {
  const origins = new Map<string, Listener>([[new URL(urls.baseUrl).origin, 'api']]);
  if (urls.loginUrl !== undefined) origins.set(new URL(urls.loginUrl).origin, 'login');
  if (urls.nonEmployeeUrl !== undefined) origins.set(new URL(urls.nonEmployeeUrl).origin, 'nonEmployee');
  let validator: Promise<ContractValidator> | undefined;
  return async (input, init) => {
    const res = await fetch(input, init);
    const at = new URL(res.url !== '' ? res.url : input instanceof Request ? input.url : String(input));
    const listener = origins.get(at.origin);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const path = at.pathname + at.search;
    if (listener === undefined || skipped(method, path)) return res;
    validator ??= fetch(`${urls.baseUrl}/openapi.json`)
      .then((r) => r.json())
      .then((doc) => new ContractValidator(doc as Record<string, unknown>));
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
    const problems = (await validator).check(listener, method, path, { statusCode: res.status, headers, body: await res.clone().text() });
    if (problems.length > 0) throw new Error(`response not documented by /openapi.json:\n${problems.join('\n')}`);
    return res;
  };
}

export interface ContractProxy {
  /** The proxy's base URL: give it to the client instead of the server's. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the API listener at `target` (another process): every request is
 * forwarded as it came, every answer checked against the /openapi.json `target` serves and then
 * passed back unchanged. A violation is recorded and fails the current test.
 */
export async function contractProxy(target: string): Promise<ContractProxy> {
  const validator = new ContractValidator((await (await fetch(`${target}/openapi.json`)).json()) as Record<string, unknown>);
  const upstreamHost = new URL(target).host;
  const proxy = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const forward = request(new URL(url, target), { method, headers: { ...req.headers, host: upstreamHost } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        if (!skipped(method, url)) violations.push(...validator.check('api', method, url, { statusCode: answer.statusCode ?? 0, headers: answer.headers, body: body.toString('utf8') }));
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) }).end(body);
      });
    });
    forward.on('error', (error) => {
      violations.push(`${method} ${url}: the proxy could not reach ${target}: ${error.message}`);
      res.writeHead(502).end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        proxy.close((error) => (error ? reject(error) : resolve()));
        proxy.closeAllConnections();
      }),
  };
}
