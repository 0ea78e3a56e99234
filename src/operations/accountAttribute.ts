// accountAttribute — an attribute of the identity's account on a source
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute).

import { codedError, isTransformsError, type ErrorCode } from '../errors/index.js';
import { compilePredicate, filterProperties, type Predicate } from '../filter/index.js';
import { andThen, isPromise, type MaybePromise } from '../providers/maybe.js';
import { decide } from '../engine/trace.js';
import { didYouMean } from '../errors/suggest.js';
import type { CodeContext, CompileContext, Evaluation, Evaluator, Value } from '../engine/types.js';
import type { Account, Source, SourceRef } from '../providers/types.js';
import { compareAccounts, sortKey } from './support/account-sort.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

/** The only properties accountFilter can query: the platform runs it against its database (the account-attribute page). */
const SEARCHABLE = new Set(['nativeIdentity', 'displayName', 'entitlements']);
const SOURCE_KEYS = ['sourceId', 'applicationId', 'applicationName', 'sourceName'] as const;

export const accountAttribute = defineOperation({
  type: 'accountAttribute',
  doc: 'accountAttribute — candidate accounts on the source, accountFilter, accountPropertyFilter, sort, first (non-null) value',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      sourceName: ref.string,
      applicationId: ref.string,
      applicationName: ref.string,
      sourceId: ref.string,
      attributeName: ref.string,
      accountSortAttribute: ref.string,
      accountSortDescending: ref.boolean,
      accountReturnFirstLink: ref.boolean,
      accountFilter: ref.string,
      accountPropertyFilter: ref.string,
    },
    required: ['attributeName'],
  }),
  compile(ctx) {
    const { explain, loadValue, valueKey } = plan(ctx);
    if (ctx.tracing) return explain;
    return (_input, ev) => ev.cached(valueKey, loadValue);
  },
  // The generated read: the source, the candidates (listed once per identity and source), their
  // filtered and sorted order and the value read are kept in slots of the generated function's
  // state, shared by every node (of the whole profile) reading alike; the value is read by code
  // of this node's own (readAttribute's rule, written out with the name as a literal), so that V8
  // sees one attribute name at each read.
  generate(code) {
    const { findSource, listFrom, filters, sorted, orderKey, valueKey, sourceKey, accountsKey, attributeName, firstLink, pointer } = plan(code.compile);
    const { ev, rt } = code;
    const [value, ordered, listed, source] = [valueKey, orderKey, accountsKey, sourceKey].map((key) => code.slot(key));
    const name = code.literal(attributeName);
    return `let v = ${value};
if (v === undefined) {
  let list = ${ordered};
  if (list === undefined) {
    let accounts = ${listed};
    if (accounts === undefined) {
      if (!${ev}.identity) throw ${rt}.error('EVAL_NO_IDENTITY', 'accountAttribute needs an identity in the evaluation context', ${code.literal(pointer)});
      let source = ${source};
      if (source === undefined) ${source} = source = ${rt}.memo(${ev}, ${code.literal(sourceKey)}, ${code.bind(findSource)}(${ev}));
      ${listed} = accounts = ${rt}.memo(${ev}, ${code.literal(accountsKey)}, ${code.bind(listFrom)}(${ev}, source));
    }
    let kept = accounts;
${filtering(code, filters)}    ${ordered} = list = ${code.bind(sorted)}(kept);
  }
  v = null;
  for (let i = 0, n = ${firstLink ? 'Math.min(list.length, 1)' : 'list.length'}; i < n; i++) {
    const at = list[i].attributes;
    if (at) {
      // Read first: an absent attribute (the commoner miss) costs that read alone; a value found must be the attributes' own.
      const x = at[${name}];
      if (x !== undefined && x !== null && Object.prototype.hasOwnProperty.call(at, ${name}) && !(Array.isArray(x) && x.length === 0)) {
        v = x;
        break;
      }
    }
  }
  ${value} = v;
}
return v;`;
  },
});

/**
 * Statements narrowing `kept` to the accounts the node's filters keep, as keep() does: each
 * filter's predicate called from this node's own code, where V8 sees that one predicate (a
 * helper shared by every node sees them all, and calls none of them directly).
 */
function filtering(code: CodeContext, filters: { accountPredicate: Predicate | undefined; propertyPredicate: Predicate | undefined; view: SearchableView }): string {
  const tests: string[] = [];
  if (filters.accountPredicate) tests.push(`${code.bind(filters.accountPredicate)}(${code.bind(fillView)}(${code.bind(filters.view)}, a))`);
  if (filters.propertyPredicate) tests.push(`${code.bind(filters.propertyPredicate)}(a.attributes)`);
  return tests
    .map(
      (test) => `    {
      let out;
      for (let i = 0, n = kept.length; i < n; i++) {
        const a = kept[i];
        if (${test}) {
          if (out !== undefined) out.push(a);
        } else if (out === undefined) out = kept.slice(0, i);
      }
      if (out !== undefined) kept = out;
    }
`,
    )
    .join('');
}

/** What one accountAttribute node reads and how: built at compile time, for the closure and the template alike. */
function plan(ctx: CompileContext) {
  const attributeName = constantString(ctx.attributes.attributeName);
  const sourceRef: SourceRef = {};
  for (const key of SOURCE_KEYS) {
    const v = ctx.attributes[key];
    if (v !== undefined && v !== null) sourceRef[key] = String(v);
  }
  if (Object.keys(sourceRef).length === 0) {
    throw ctx.error('SCHEMA_REQUIRED', 'accountAttribute needs sourceName, applicationId or applicationName', { attribute: 'sourceName' });
  }
  const sortAttribute = ctx.has('accountSortAttribute') ? String(ctx.attributes.accountSortAttribute) : 'created';
  const descending = ctx.boolean('accountSortDescending', false);
  const firstLink = ctx.boolean('accountReturnFirstLink', false);

  const accountFilterText = ctx.has('accountFilter') ? String(ctx.attributes.accountFilter) : undefined;
  const accountFilter = accountFilterText === undefined ? undefined : ctx.objectFilter(accountFilterText, ctx.at('accountFilter'));
  if (accountFilter) {
    for (const property of filterProperties(accountFilter)) {
      if (!SEARCHABLE.has(property)) {
        throw ctx.error(
          'COMPILE_FILTER_PROPERTY',
          `accountFilter can only query nativeIdentity, displayName and entitlements, not "${property}" (use accountPropertyFilter)`,
          { attribute: 'accountFilter' },
        );
      }
    }
  }
  const accountPredicate = accountFilter ? compileFilter(() => compilePredicate(accountFilter), ctx, 'accountFilter') : undefined;
  const propertyFilter = ctx.has('accountPropertyFilter')
    ? ctx.objectFilter(String(ctx.attributes.accountPropertyFilter), ctx.at('accountPropertyFilter'))
    : undefined;
  const propertyPredicate = propertyFilter ? compileFilter(() => compilePredicate(propertyFilter), ctx, 'accountPropertyFilter') : undefined;
  const sourceKey = 'source:' + JSON.stringify(sourceRef);
  const accountsKey = 'accounts:' + JSON.stringify(sourceRef) + ':' + (accountFilterText ?? '');
  // Attributes that read the same accounts in the same order share the ordered list, and the
  // same read (the same attribute, first link or not) shares its value.
  const orderKey = JSON.stringify([accountsKey, propertyFilter ? String(ctx.attributes.accountPropertyFilter) : null, sortAttribute, descending]);
  const valueKey = JSON.stringify([orderKey, attributeName, firstLink]);
  const pointer = ctx.pointer;

  // The record accountFilter sees, refilled for each account: the predicate only reads it.
  const view: SearchableView = { nativeIdentity: undefined, displayName: undefined, entitlements: undefined };
  // The filters' tests, made once per node rather than once per evaluation.
  const acceptAccount = accountPredicate ? (a: Account) => accountPredicate(fillView(view, a)) : undefined;
  const acceptProperties = propertyPredicate ? (a: Account) => propertyPredicate(a.attributes) : undefined;
  /** Candidates already filtered, sorted (stable); the list itself when it holds fewer than two. */
  const sorted = (candidates: readonly Account[]): readonly Account[] => {
    if (candidates.length < 2) return candidates;
    if (candidates.length === 2) {
      // Two accounts (the commonest list sorted): one comparison orders them, without
      // Array.prototype.sort's machinery (the same comparison V8's sort makes for two elements).
      const [a, b] = candidates as [Account, Account];
      const first = { account: a, index: 0, key: sortKey(a, sortAttribute) };
      const second = { account: b, index: 1, key: sortKey(b, sortAttribute) };
      return compareAccounts(second, first, descending) < 0 ? [b, a] : [a, b];
    }
    const keyed = candidates.map((account, index) => ({ account, index, key: sortKey(account, sortAttribute) }));
    keyed.sort((a, b) => compareAccounts(a, b, descending));
    return keyed.map((k) => k.account);
  };
  /** The candidates in the order they are read: filtered, then sorted (stable). */
  const order = (accounts: readonly Account[]): readonly Account[] => {
    let candidates = accounts as Account[];
    if (acceptAccount) candidates = keep(candidates, acceptAccount);
    if (acceptProperties) candidates = keep(candidates, acceptProperties);
    return sorted(candidates);
  };
  const read = (candidates: readonly Account[]): Value => {
    if (candidates.length === 0) return null;
    if (firstLink) return readAttribute(candidates[0]!, attributeName);
    for (const account of candidates) {
      const v = readAttribute(account, attributeName);
      if (v !== null) return v;
    }
    return null;
  };
  const pick = (accounts: readonly Account[]): Value => read(order(accounts));

  // Explaining: the same choice, with every candidate account and why it was dropped or kept.
  const explainPick = (ev: Evaluation, accounts: readonly Account[]): Value => {
    const value = pick(accounts);
    const rows = accounts.map((a) => {
      const dropped = accountPredicate && !accountPredicate(searchableView(a)) ? 'accountFilter' : propertyPredicate && !propertyPredicate(a.attributes) ? 'accountPropertyFilter' : undefined;
      const key = sortKey(a, sortAttribute);
      return { id: a.id, nativeIdentity: a.nativeIdentity, name: a.name, sortKey: key.kind === 'null' ? null : key.kind === 'date' ? new Date(key.value).toISOString() : key.value, value: readAttribute(a, attributeName), ...(dropped ? { droppedBy: dropped } : {}) };
    });
    const kept = accounts.filter((_a, i) => rows[i]!.droppedBy === undefined);
    const order = kept.map((account, index) => ({ account, index, key: sortKey(account, sortAttribute) })).sort((a, b) => compareAccounts(a, b, descending));
    const chosen = firstLink ? order[0] : order.find((k) => readAttribute(k.account, attributeName) !== null);
    // The source is resolved (and memoised) by now: the accounts were listed from it.
    const source = ev.cached(sourceKey, findSource) as Source;
    const names = ev.providers.names;
    const carried = names ? names.accountAttributeKnown(source.id, attributeName) : { known: true as const };
    decide(ev, {
      source: { id: source.id, name: source.name },
      attribute: attributeName,
      ...(carried.known ? {} : { unknownAttribute: carried.suggestion === undefined ? {} : { suggestion: carried.suggestion } }),
      ...(accountFilterText !== undefined ? { accountFilter: accountFilterText } : {}),
      ...(propertyFilter ? { accountPropertyFilter: String(ctx.attributes.accountPropertyFilter) } : {}),
      sortAttribute,
      descending,
      returnFirstLink: firstLink,
      accounts: rows,
      order: order.map((k) => k.account.id),
      returned: chosen ? chosen.account.id : null,
    });
    return value;
  };

  // The reads below are built once per node and allocate no closure per evaluation: a refresh
  // runs them for every identity. A provider that answers with a promise is chained as before.
  const providerFailed = (error: unknown): never => {
    throw codedError('EVAL_PROVIDER_FAILED', `listing accounts failed: ${error instanceof Error ? error.message : String(error)}`, { path: pointer, cause: error });
  };
  const listFrom = (ev: Evaluation, source: Source): MaybePromise<readonly Account[]> => {
    const provider = ev.providers.accounts;
    if (!provider) throw codedError('EVAL_PROVIDER_MISSING', 'accountAttribute needs an account provider', { path: pointer });
    const identityId = ev.identity!.id;
    let listed: MaybePromise<readonly Account[]>;
    try {
      listed = provider.listAccounts(accountFilter ? { identityId, sourceId: source.id, filter: accountFilter } : { identityId, sourceId: source.id });
    } catch (error) {
      return providerFailed(error);
    }
    return isPromise<readonly Account[]>(listed) ? listed.then(undefined, providerFailed) : listed;
  };
  const findSource = sourceResolver(sourceRef, pointer);
  const listAccounts = (ev: Evaluation): MaybePromise<readonly Account[]> => {
    const source = ev.cached(sourceKey, findSource);
    return isPromise<Source>(source) ? source.then((s) => listFrom(ev, s)) : listFrom(ev, source);
  };
  const load = (ev: Evaluation): MaybePromise<readonly Account[]> => {
    if (!ev.identity) throw codedError('EVAL_NO_IDENTITY', 'accountAttribute needs an identity in the evaluation context', { path: pointer });
    return ev.cached(accountsKey, listAccounts);
  };
  const explain: Evaluator = (_input, ev) => andThen(load(ev), (accounts) => explainPick(ev, accounts));
  const loadOrder = (ev: Evaluation): MaybePromise<readonly Account[]> => {
    const accounts = load(ev);
    return isPromise<readonly Account[]>(accounts) ? accounts.then(order) : order(accounts);
  };
  const loadValue = (ev: Evaluation): MaybePromise<Value> => {
    const ordered = ev.cached(orderKey, loadOrder);
    return isPromise<readonly Account[]>(ordered) ? ordered.then(read) : read(ordered);
  };
  const filters = { accountPredicate, propertyPredicate, view };
  return { explain, loadValue, findSource, listFrom, filters, sorted, orderKey, valueKey, sourceKey, accountsKey, attributeName, firstLink, pointer };
}

function constantString(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

function compileFilter<T>(build: () => T, ctx: { error: (code: ErrorCode, message: string, o?: { attribute?: string; cause?: unknown }) => Error }, attribute: string): T {
  try {
    return build();
  } catch (error) {
    const code = isTransformsError(error) ? error.code : 'COMPILE_INVALID_ATTRIBUTE';
    throw ctx.error(code, (error as Error).message, { attribute, cause: error });
  }
}

/** The record accountFilter sees: the three searchable account properties. */
interface SearchableView extends Record<string, unknown> {
  nativeIdentity: unknown;
  displayName: unknown;
  entitlements: unknown;
}

/** The accounts `test` keeps, in order; the list itself when it keeps them all. */
function keep(accounts: Account[], test: (account: Account) => boolean): Account[] {
  let kept: Account[] | undefined;
  for (let i = 0; i < accounts.length; i++) {
    const a = accounts[i]!;
    if (test(a)) kept?.push(a);
    else kept ??= accounts.slice(0, i);
  }
  return kept ?? accounts;
}

function searchableView(account: Account): SearchableView {
  return fillView({ nativeIdentity: undefined, displayName: undefined, entitlements: undefined }, account);
}

function fillView(view: SearchableView, account: Account): SearchableView {
  view.nativeIdentity = account.nativeIdentity;
  view.displayName = account.name;
  view.entitlements = account.hasEntitlements;
  return view;
}

/** An account attribute as stored (lists stay lists); undefined and [] count as no value. */
function readAttribute(account: Account, name: string): Value {
  const attributes = account.attributes;
  const v = attributes && Object.prototype.hasOwnProperty.call(attributes, name) ? attributes[name] : undefined;
  if (v === undefined || v === null) return null;
  if (Array.isArray(v) && v.length === 0) return null;
  return v as Value;
}

/** How one node resolves its source (memoised by the caller under the node's source key), built once per node. */
function sourceResolver(sourceRef: SourceRef, pointer: string): (ev: Evaluation) => MaybePromise<Source> {
  const unknown = (ev: Evaluation): never => {
    const suggestion = ev.providers.names?.closestSourceName(sourceRef);
    throw codedError('EVAL_UNKNOWN_SOURCE', `no source matches ${JSON.stringify(sourceRef)}${didYouMean(suggestion)}`, {
      path: pointer,
      ...(suggestion !== undefined ? { details: { suggestion } } : {}),
    });
  };
  const failed = (error: unknown): never => {
    throw codedError('EVAL_PROVIDER_FAILED', `resolving the source failed: ${error instanceof Error ? error.message : String(error)}`, { path: pointer, cause: error });
  };
  return (ev) => {
    const provider = ev.providers.sources;
    if (!provider) throw codedError('EVAL_PROVIDER_MISSING', 'accountAttribute needs a source provider', { path: pointer });
    let source: MaybePromise<Source | null>;
    try {
      source = provider.resolveSource(sourceRef);
    } catch (error) {
      return failed(error);
    }
    if (isPromise<Source | null>(source)) return source.then((s) => s ?? unknown(ev), failed);
    return source ?? unknown(ev);
  };
}
