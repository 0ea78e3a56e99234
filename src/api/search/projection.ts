// queryResultFilter of a search request (https://developer.sailpoint.com/docs/api/v3/search-post:
// "queryResultFilter: allows the query results to be filtered by specifying a list of fields to
// include and/or exclude from the result documents"): dotted paths, applied through arrays, as
// Elasticsearch's _source filtering applies them. Without wildcards: a path names a member.

import { badQuery } from '../collections/index.js';

export interface Projection {
  readonly includes: readonly string[][] | null;
  readonly excludes: readonly string[][];
}

const PATH = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/;
const MAX_PATHS = 100;

function paths(value: unknown, member: string): string[][] {
  if (!Array.isArray(value) || value.length > MAX_PATHS || !value.every((p) => typeof p === 'string' && PATH.test(p))) {
    throw badQuery('SEARCH_RESULT_FILTER', 'body', `'queryResultFilter.${member}' must be an array of at most ${MAX_PATHS} dotted field names`);
  }
  return (value as string[]).map((p) => p.split('.'));
}

/** The projection of a search body, or null when it asks for whole documents. */
export function parseProjection(body: Record<string, unknown>): Projection | null {
  const filter = body.queryResultFilter;
  if (filter === undefined || filter === null) return null;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw badQuery('SEARCH_RESULT_FILTER', 'body', "'queryResultFilter' must be an object { includes?, excludes? }");
  const f = filter as Record<string, unknown>;
  const unknown = Object.keys(f).find((k) => k !== 'includes' && k !== 'excludes');
  if (unknown !== undefined) throw badQuery('SEARCH_RESULT_FILTER', 'body', `'queryResultFilter.${unknown}' is not supported (includes, excludes)`);
  const includes = f.includes === undefined || f.includes === null ? null : paths(f.includes, 'includes');
  const excludes = f.excludes === undefined || f.excludes === null ? [] : paths(f.excludes, 'excludes');
  return includes === null && excludes.length === 0 ? null : { includes, excludes };
}

/** Whether any of `paths` starts with `member` (the projection needs it at all). */
export function projectionNeeds(projection: Projection | null, member: string): boolean {
  if (projection === null) return true;
  if (projection.excludes.some((p) => p.length === 1 && p[0] === member)) return false;
  return projection.includes === null || projection.includes.some((p) => p[0] === member);
}

function pick(value: unknown, tails: readonly string[][]): unknown {
  if (tails.some((t) => t.length === 0)) return value;
  if (Array.isArray(value)) return value.map((v) => pick(v, tails));
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const deeper = tails.filter((t) => t[0] === k).map((t) => t.slice(1));
    if (deeper.length === 0) continue;
    const picked = pick(v, deeper);
    if (picked !== undefined) out[k] = picked;
  }
  return out;
}

function drop(value: unknown, path: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => drop(v, path));
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  if (!Object.prototype.hasOwnProperty.call(value, head!)) return value;
  const out = { ...(value as Record<string, unknown>) };
  if (rest.length === 0) delete out[head!];
  else out[head!] = drop(out[head!], rest);
  return out;
}

/** A search document with only the included members, then without the excluded ones. */
export function project(doc: Record<string, unknown>, projection: Projection | null): Record<string, unknown> {
  if (projection === null) return doc;
  let out = projection.includes === null ? doc : (pick(doc, projection.includes) as Record<string, unknown>);
  for (const path of projection.excludes) out = drop(out, path) as Record<string, unknown>;
  return out;
}
