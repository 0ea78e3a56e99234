// The API tests check every response they receive against /openapi.json, so the document cannot
// drift from the server: an operation answering a status it does not document, a content type
// it does not list, a body its schema rejects, or X-Total-Count where no header is documented
// makes the request throw, and the test with it. The shared server helpers (helpers.ts,
// resources-server.ts) install this on each listener's inject(); JSON Schema 2020-12 (what
// OpenAPI 3.1 schemas are) is checked with Ajv.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type Json = Record<string, unknown>;
export type Listener = 'api' | 'login' | 'nonEmployee';

/** What the check reads of a response, whether from inject() or from a socket (contract-http.ts). */
export interface Answer {
  readonly statusCode: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: string;
}

interface Route {
  readonly pattern: RegExp;
  /** Fewer parameters first: /identity-profiles/v1/identity-preview before /identity-profiles/v1/{id}. */
  readonly params: number;
  readonly path: string;
  readonly item: Json;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

const pointerToken = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function listenerOf(item: Json): Listener {
  const servers = item.servers as { description?: string }[] | undefined;
  const d = servers?.[0]?.description ?? '';
  return d.includes('{login_url}') ? 'login' : d.includes('{nonemployee_base_url}') ? 'nonEmployee' : 'api';
}

export class ContractValidator {
  readonly #doc: Json;
  readonly #ajv: Ajv2020;
  readonly #routes: Record<Listener, Route[]> = { api: [], login: [], nonEmployee: [] };
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.#doc = doc;
    this.#ajv = new Ajv2020({ strict: false, allErrors: false });
    // The formats the document uses: RFC 3339 date-times (with a zone), absolute URIs, UUIDs.
    this.#ajv.addFormat('date-time', (v: string) => RFC3339.test(v) && !Number.isNaN(Date.parse(v)));
    this.#ajv.addFormat('uri', (v: string) => URL.canParse(v));
    this.#ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    this.#ajv.addSchema(doc, 'openapi.json');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const params = (path.match(/\{/g) ?? []).length;
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      this.#routes[listenerOf(item)].push({ pattern: new RegExp(`^${source}/?$`), params, path, item });
    }
    for (const list of Object.values(this.#routes)) list.sort((a, b) => a.params - b.params);
  }

  /** The problems of one response; [] when it is documented. Requests matching no operation are not checked. */
  check(listener: Listener, method: string, url: string, res: Answer): string[] {
    const path = url.split('?')[0]!.split('#')[0]!;
    const route = this.#routes[listener].find((r) => r.pattern.test(path));
    const m = method.toLowerCase();
    const op = route?.item[m] as Json | undefined;
    if (route === undefined || op === undefined) return [];
    const where = `${method.toUpperCase()} ${url} (${route.path}) → ${res.statusCode}`;
    const responses = op.responses as Record<string, Json>;
    const status = String(res.statusCode);
    let response = responses[status] ?? responses[`${status[0]}XX`];
    let pointer = `#/paths/${pointerToken(route.path)}/${m}/responses/${status}`;
    if (response === undefined) return [`${where}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    if (typeof response.$ref === 'string') {
      pointer = response.$ref;
      response = this.#resolve(response.$ref);
    }
    const problems: string[] = [];
    const content = response.content as Record<string, { schema?: Json }> | undefined;
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (content === undefined) {
      if (res.body.length > 0) problems.push(`${where}: a body (${type}) where the document declares none`);
    } else if (res.body.length === 0 && res.statusCode !== 304) {
      problems.push(`${where}: no body where the document declares ${Object.keys(content).join(', ')}`);
    } else if (content[type] === undefined) {
      problems.push(`${where}: content type ${type || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`);
    } else if (type === 'application/json' && content[type]!.schema !== undefined) {
      const validate = this.#validator(`${pointer}/content/${pointerToken(type)}/schema`);
      if (!validate(JSON.parse(res.body))) {
        problems.push(`${where}: the body does not match its schema: ${this.#ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
      }
    }
    const headers = (response.headers ?? {}) as Record<string, unknown>;
    const documented = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
    if (res.headers['x-total-count'] !== undefined && !documented.has('x-total-count')) problems.push(`${where}: X-Total-Count is not documented`);
    return problems;
  }

  #resolve(ref: string): Json {
    let node: unknown = this.#doc;
    for (const t of ref.replace(/^#\//, '').split('/')) node = (node as Json)[t.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node as Json;
  }

  #validator(pointer: string): ValidateFunction {
    let v = this.#compiled.get(pointer);
    if (v === undefined) this.#compiled.set(pointer, (v = this.#ajv.compile({ $ref: `openapi.json${pointer}` })));
    return v;
  }
}

/** The document of a server: what GET /openapi.json answers on its API listener. */
export async function servedDocument(api: FastifyInstance): Promise<Json> {
  const res = await api.inject({ url: '/openapi.json' });
  return JSON.parse(res.body) as Json;
}

/**
 * Check every response `app.inject()` returns against the served document (fetched once, on the
 * first request, so that it describes every route the server registered). A violation rejects
 * the request's promise with the problems listed.
 */
export function validateResponses(app: FastifyInstance, listener: Listener, api: FastifyInstance): void {
  const inject = app.inject.bind(app) as (opts?: unknown) => unknown;
  let validator: Promise<ContractValidator> | undefined;
  const checked = async (opts: unknown): Promise<LightMyRequestResponse> => {
    const res = (await inject(opts)) as LightMyRequestResponse;
    const o = (typeof opts === 'string' ? { url: opts } : opts) as { method?: string; url?: string | { pathname?: string }; path?: string };
    const url = typeof o.url === 'string' ? o.url : (o.url?.pathname ?? o.path ?? '/');
    if (url.startsWith('/openapi.json')) return res;
    validator ??= servedDocument(api).then((doc) => new ContractValidator(doc));
    const problems = (await validator).check(listener, o.method ?? 'GET', url, res);
    if (problems.length > 0) throw new Error(`response not documented by /openapi.json:\n${problems.join('\n')}`);
    return res;
  };
  Object.defineProperty(app, 'inject', {
    configurable: true,
    value: (opts?: unknown, callback?: unknown) => (opts === undefined || callback !== undefined ? (inject as (o?: unknown, c?: unknown) => unknown)(opts, callback) : checked(opts)),
  });
}
