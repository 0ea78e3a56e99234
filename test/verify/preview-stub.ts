// A small stand-in for a platform tenant, for `verify --preview`: a node:http server in front of
// `serve` that passes every request through (the token, the profile, the identity search, the
// accounts, the transforms) except the identity preview, which it answers itself: by default
// with serve's own preview patched by `plant` (the planted values the platform "computes"), or
// with `answer` as given. It records the preview requests and the bearer tokens it saw.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PreviewRequest {
  identityId: string;
  identityAttributeConfig: { attributeTransforms: { identityAttributeName: string; transformDefinition: { type: string } }[] };
}

export interface PreviewAttribute {
  name: string;
  value: unknown;
  previousValue: unknown;
  errorMessages: unknown[];
}

export interface StubOptions {
  /** Patch serve's answer: the attributes as serve computed them, for the identity asked. */
  plant?: (identityId: string, attributes: PreviewAttribute[]) => void;
  /** Answer every preview with this status and body instead. */
  answer?: { status: number; body: unknown };
}

export interface PreviewStub {
  baseUrl: string;
  previews: PreviewRequest[];
  /** Every bearer token presented. */
  tokens: Set<string>;
  /** Methods and paths of every request passed through to serve. */
  passed: string[];
  close(): Promise<void>;
}

const PREVIEW = '/v3/identity-profiles/identity-preview';

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function previewStub(serveUrl: string, options: StubOptions = {}): Promise<PreviewStub> {
  const previews: PreviewRequest[] = [];
  const tokens = new Set<string>();
  const passed: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const auth = request.headers.authorization;
      if (auth?.startsWith('Bearer ')) tokens.add(auth.slice('Bearer '.length));
      const forward = (path: string, payload: Buffer | string) =>
        fetch(serveUrl + path, {
          method: request.method!,
          headers: Object.fromEntries(['authorization', 'content-type', 'accept'].flatMap((h) => (request.headers[h] ? [[h, String(request.headers[h])]] : []))),
          ...(request.method === 'GET' ? {} : { body: payload }),
        });
      if (request.method === 'POST' && request.url === PREVIEW) {
        const asked = JSON.parse(body.toString('utf8')) as PreviewRequest;
        previews.push(asked);
        if (options.answer) {
          response.writeHead(options.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(options.answer.body));
          return;
        }
        const served = await forward(PREVIEW, body);
        const answer = (await served.json()) as { previewAttributes: PreviewAttribute[] };
        if (served.ok) options.plant?.(asked.identityId, answer.previewAttributes);
        response.writeHead(served.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        return;
      }
      passed.push(`${request.method} ${request.url}`);
      const served = await forward(request.url!, body);
      const headers: Record<string, string> = { 'content-type': served.headers.get('content-type') ?? 'application/json' };
      const total = served.headers.get('x-total-count');
      if (total !== null) headers['x-total-count'] = total;
      response.writeHead(served.status, headers).end(Buffer.from(await served.arrayBuffer()));
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    previews,
    tokens,
    passed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
