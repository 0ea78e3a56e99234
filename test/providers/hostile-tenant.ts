// A tenant that misbehaves on purpose, on 127.0.0.1: each request is answered by a handler that
// may redirect, stream without end, stall mid-body or cycle its cursors. It records what it was
// sent, so tests can show where a credential went.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: Received, response: ServerResponse, n: number) => void;

export interface HostileTenant {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A token answer, as the token endpoint gives it. */
export function tokenAnswer(response: ServerResponse, token = 'token-1'): void {
  json(response, 200, { access_token: token, token_type: 'bearer', expires_in: 749 });
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Listens on 127.0.0.1; `handle` answers every request (n counts the requests to that path). */
export async function hostileTenant(handle: Handler): Promise<HostileTenant> {
  const received: Received[] = [];
  const perPath = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const seen: Received = { method: request.method ?? 'GET', path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(seen);
      const n = perPath.get(path) ?? 0;
      perPath.set(path, n + 1);
      handle(seen, response, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
