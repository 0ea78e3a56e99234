// The playground's HTTP server (node:http; nothing of the platform API's Fastify stack): the page
// and its bundled assets, and the small JSON API of host.ts. A local server that evaluates
// templates is a target for every web page the user visits, so:
// - it listens on 127.0.0.1 only;
// - every request's Host must name that address (or localhost) and the port: a DNS-rebinding
//   page reaches the port under a name of its own (PLAY_HOST_REFUSED);
// - a request that carries Origin (every browser's POST, every cross-origin fetch) must come from
//   the page itself, and one a browser marks `Sec-Fetch-Site: cross-site` is refused
//   (PLAY_ORIGIN_REFUSED);
// - every API call carries the random token of the printed URL, as Jupyter's does
//   (`Authorization: token <t>`), compared in constant time (PLAY_TOKEN_INVALID); a POST must be
//   `application/json`, which no HTML form can send without a CORS preflight this server never
//   grants;
// - the page runs under a strict Content-Security-Policy: scripts, styles and fetches from this
//   origin only, no inline script, no frame; nothing it loads comes from elsewhere.
// Bodies are read up to MAX_BODY_BYTES; evaluation is budgeted by the engine's limits (host.ts),
// an impact run by a budget of its own and cancelled with its request (impact-process.ts).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { codedError, isTransformsError, type TransformsError } from '../errors/index.js';
import { newTrackingId } from '../errors/tracking-id.js';
import type { PlayHost } from './host.js';
import { requestCheckers, type RequestName } from './requests.js';

/** Bytes a request body may hold: a document at the platform's limit and room for the other members. */
export const MAX_BODY_BYTES = MAX_TRANSFORM_BYTES + 16 * 1024;

/**
 * The page's policy. The editor (CodeMirror) writes its styles into one <style> element, which
 * carries the nonce of the page's response (EditorView.cspNonce reads it from the page's
 * csp-nonce meta); no other inline style or script runs.
 */
export const contentSecurityPolicy = (nonce: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

/** The page's files, built by `npm run build` into dist/play/page/ (the same path from src/ and dist/). */
export const ASSETS_DIR = fileURLToPath(new URL('../../dist/play/page/', import.meta.url));

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export interface PlayServerOptions {
  /** Port on 127.0.0.1 (0: any free port). */
  port?: number;
  /** The token API calls must carry (default: 32 random bytes, hex). */
  token?: string;
  /** Where the built page is (default ASSETS_DIR). */
  assets?: string;
  /** Where the detail of a failure of the server's own goes, one line each (default: standard error). */
  log?: (line: string) => void;
}

export interface PlayServer {
  /** The URL to open: the page, with the token in its query. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  close(): Promise<void>;
}

type Handler = (host: PlayHost, body: unknown, query: URLSearchParams) => unknown;
/** A POST's answer; `signal` is aborted when the request's client goes away before it is answered. */
type PostHandler = (host: PlayHost, body: never, signal: AbortSignal) => unknown;

const post = (name: RequestName, answer: PostHandler) => ({ method: 'POST' as const, name, answer });

const API: Record<string, { method: 'GET'; answer: Handler } | { method: 'POST'; name: RequestName; answer: PostHandler }> = {
  '/api/state': { method: 'GET', answer: (host) => ({ fixtures: host.dir, identities: host.tenant.identities.length, examples: host.examples() }) },
  '/api/identities': { method: 'GET', answer: (host, _body, query) => host.identities((query.get('q') ?? '').slice(0, 1000)) },
  '/api/example': { method: 'GET', answer: (host, _body, query) => ({ file: query.get('file') ?? '', text: host.exampleText(query.get('file') ?? '') }) },
  '/api/analyze': post('analyze', (host, body) => host.analyze(body)),
  '/api/complete': post('complete', (host, body) => host.complete(body)),
  '/api/hover': post('complete', (host, body) => host.hover(body)),
  '/api/profile': post('profile', (host, body) => host.profile(body)),
  '/api/impact': post('impact', (host, body, signal) => host.impact(body, signal)),
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, policy?: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...(policy ? { 'content-security-policy': policy } : {}), 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, error: TransformsError, trackingId?: string): void {
  const body = { error: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}), ...(trackingId !== undefined ? { trackingId } : {}) } };
  send(res, error.status, 'application/json; charset=utf-8', JSON.stringify(body));
}

/**
 * A failure of the server's own (a defect, not a refusal): the answer says only that it failed and
 * under which id, as the platform's error bodies carry a trackingId; the detail, whose text may
 * name files of this machine or the code's insides, goes to the log under the same id.
 */
function sendInternal(res: ServerResponse, error: unknown, log: (line: string) => void): void {
  const trackingId = newTrackingId();
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  log(`play: internal error ${trackingId}: ${detail}`);
  sendError(res, codedError('PLAY_INTERNAL', `the playground failed to answer (tracking id ${trackingId}: the play command's standard error has the detail)`), trackingId);
}

/**
 * Bytes of a refused request's body read and dropped after the refusal, so that a client still
 * sending (a browser posting a pasted megabyte) reads the coded answer rather than a reset; past
 * them the connection is closed (a body that never ends is not read until the request timeout).
 */
export const MAX_DISCARDED_BYTES = 16 * MAX_BODY_BYTES;

function discard(req: IncomingMessage): void {
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_DISCARDED_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** The body, read up to MAX_BODY_BYTES; past it reading stops and the refusal is answered at once. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_BODY_BYTES) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      reject(tooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const tooLarge = () => codedError('PLAY_REQUEST_TOO_LARGE', `the request body is above ${MAX_BODY_BYTES} bytes (a transform may be 400 KB at most)`);

/** The request-target as a URL: Node's parser lets through some that are none (`http://[`, `//[`), the client's error. */
function requestUrl(target: string): URL {
  try {
    return new URL(target, 'http://127.0.0.1');
  } catch {
    throw codedError('PLAY_REQUEST_INVALID', `the request-target "${target.slice(0, 200)}" is not a URL`);
  }
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Serve the playground on 127.0.0.1 over a host. */
export async function startPlayServer(host: PlayHost, options: PlayServerOptions = {}): Promise<PlayServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const assets = options.assets ?? ASSETS_DIR;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const check = requestCheckers();
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().includes(String(req.headers.host ?? '').toLowerCase())) {
      throw codedError('PLAY_HOST_REFUSED', `the Host header "${String(req.headers.host ?? '').slice(0, 200)}" is not this playground's address (${allowedHosts().join(' or ')})`);
    }
    const origin = req.headers.origin;
    if ((origin !== undefined && !allowedHosts().some((h) => origin === `http://${h}`)) || req.headers['sec-fetch-site'] === 'cross-site') {
      throw codedError('PLAY_ORIGIN_REFUSED', `a request from ${origin === undefined ? 'another site' : `the origin "${origin.slice(0, 200)}"`} is not answered: only the playground's own page may call it`);
    }
    const url = requestUrl(req.url ?? '/');
    const asset = ASSETS[url.pathname];
    if (asset) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw codedError('PLAY_METHOD_NOT_ALLOWED', `${url.pathname} takes GET`);
      if (asset.file !== 'index.html') return send(res, 200, asset.type, readFileSync(`${assets}/${asset.file}`));
      const nonce = randomBytes(16).toString('base64');
      return send(res, 200, asset.type, readFileSync(`${assets}/index.html`, 'utf8').replace('%CSP_NONCE%', nonce), contentSecurityPolicy(nonce));
    }
    if (url.pathname === '/favicon.ico') {
      return send(res, 204, 'image/x-icon', '');
    }
    const route = Object.prototype.hasOwnProperty.call(API, url.pathname) ? API[url.pathname]! : undefined;
    if (!route) {
      throw codedError('PLAY_NOT_FOUND', `no ${url.pathname.slice(0, 200)} here`);
    }
    const auth = /^token (\S+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth || !sameToken(auth[1]!, token)) {
      throw codedError('PLAY_TOKEN_INVALID', 'the API needs the token of the URL the play command printed (Authorization: token <token>)');
    }
    if (req.method !== route.method) {
      throw codedError('PLAY_METHOD_NOT_ALLOWED', `${url.pathname} takes ${route.method}`);
    }
    let answer: unknown;
    if (route.method === 'GET') answer = await route.answer(host, undefined, url.searchParams);
    else {
      if (!/^application\/json\s*(;|$)/i.test(String(req.headers['content-type'] ?? ''))) {
        throw codedError('PLAY_REQUEST_INVALID', 'the body must be application/json');
      }
      const text = (await readBody(req)).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw codedError('PLAY_REQUEST_INVALID', `the body is not JSON: ${(error as Error).message}`);
      }
      // The client going away (the page's Stop, a closed tab) before the answer cancels the work.
      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) gone.abort(codedError('PLAY_IMPACT_CANCELLED', 'the request was cancelled: its client went away'));
      };
      res.once('close', onClose);
      try {
        answer = await route.answer(host, check(route.name, body) as never, gone.signal);
      } finally {
        res.off('close', onClose);
      }
    }
    send(res, 200, 'application/json; charset=utf-8', JSON.stringify(answer));
  }

  // Without Host, Node answers an empty 400 itself: this handler refuses it as any other foreign Host.
  const server: Server = createServer({ requireHostHeader: false }, (req, res) => {
    handle(req, res)
      .catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        if (isTransformsError(error)) return sendError(res, error);
        sendInternal(res, error, log);
      })
      // A body nobody read (a refusal, a route that takes none): what the client goes on sending is dropped, up to a bound.
      .finally(() => {
        if (!req.complete && req.listenerCount('data') === 0) discard(req);
      });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 10_000;
  // What Node refuses before a request exists (malformed HTTP, headers above 16 KB, a timeout):
  // the same coded answers, in place of its empty ones.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const coded =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? codedError('PLAY_REQUEST_TIMEOUT', 'the request took too long to arrive (headers within 10 s, the whole request within 60 s)')
        : codedError('PLAY_REQUEST_INVALID', error.code === 'HPE_HEADER_OVERFLOW' ? 'the request headers are above 16 KB' : 'not an HTTP/1.1 request this server reads');
    const body = JSON.stringify({ error: { code: coded.code, message: coded.message } });
    const headers = Object.entries({ ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.end(`HTTP/1.1 ${coded.status} ${STATUS_CODES[coded.status]}\r\n${headers.join('')}\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
