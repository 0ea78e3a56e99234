// The page's calls of the playground's API (docs/playground.md): each carries the token the page
// was opened with, and a failure comes back as the API's coded error.

import type { ImpactReport } from '../../impact/types.js';
import type { CompletionItem, Hover } from '../../language/types.js';
import type { Analysis, Example, ProfileAnswer } from '../host.js';

export type { Analysis, ProfileAnswer } from '../host.js';

export interface ApiError {
  code: string;
  message: string;
  path?: string;
}

export class CodedFailure extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code} ${error.message}`);
  }
}

export class PlayApi {
  constructor(private readonly token: string) {}

  private async call<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const init: RequestInit = { headers: { authorization: `token ${this.token}` }, ...(signal ? { signal } : {}) };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers = { ...init.headers, 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const answer = (await response.json()) as T & { error?: ApiError };
    if (!response.ok) throw new CodedFailure(answer.error ?? { code: `HTTP_${response.status}`, message: response.statusText });
    return answer;
  }

  state = () => this.call<{ fixtures: string; identities: number; examples: Example[] }>('/api/state');
  identities = (q: string) => this.call<{ total: number; matches: { id: string; name: string }[] }>(`/api/identities?q=${encodeURIComponent(q)}`);
  example = (file: string) => this.call<{ file: string; text: string }>(`/api/example?file=${encodeURIComponent(file)}`);
  analyze = (body: { document: string; file?: string; identity?: string; offset?: number }) => this.call<Analysis>('/api/analyze', body);
  complete = (body: { document: string; file?: string; offset: number }) => this.call<{ items: CompletionItem[] }>('/api/complete', body);
  hover = (body: { document: string; file?: string; offset: number }) => this.call<{ hover: Hover | null }>('/api/hover', body);
  profile = (body: { document: string; file?: string; identity: string }) => this.call<ProfileAnswer>('/api/profile', body);
  /** Aborting `signal` closes the request, which stops the server's run. */
  impact = (body: { document: string; file: string }, signal: AbortSignal) => this.call<ImpactReport>('/api/impact', body, signal);
}
