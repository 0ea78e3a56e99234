// A fetch for the tenant tests: records each call and answers from a script.

export interface Call {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/** A fetch that records each call and answers from `script(call, n)` (n counts calls to that path). */
export function scriptedFetch(script: (call: Call, n: number) => Reply | Promise<Reply>) {
  const calls: Call[] = [];
  const perPath = new Map<string, number>();
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const call: Call = { method: init.method ?? 'GET', url: new URL(String(input)), headers: init.headers as Record<string, string>, body: init.body as string | undefined };
    calls.push(call);
    const n = perPath.get(call.url.pathname) ?? 0;
    perPath.set(call.url.pathname, n + 1);
    const reply = await script(call, n);
    if (reply instanceof Error) throw reply;
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status, headers: reply.headers ?? {} });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

export const TOKEN = (n: number, expiresIn = 749): Reply => ({ status: 200, body: { access_token: `token-${n}`, token_type: 'bearer', expires_in: expiresIn } });

