// A failure not built yet (src/errors/index.ts Failure) reports exactly the coded error it stands
// for: the same class, code, message, path, details and cause, as codedError() would have made it.

import { describe, expect, it } from 'vitest';
import { codedError, Failure, isCodedFailure, reported, TransformsError } from '../../src/errors/index.js';

function whole(error: unknown): unknown {
  const e = error as TransformsError;
  return { isCoded: e instanceof TransformsError, isError: e instanceof Error, name: e.name, json: e.toJSON(), status: e.status, stack: typeof e.stack, cause: e.cause === undefined ? undefined : whole(e.cause) };
}

describe('a failure, once reported', () => {
  it('is the coded error codedError() makes of the same code, message and path', () => {
    const failure = new Failure('EVAL_LOOKUP_NO_MATCH', 'no table key matches null and the table has no default', '/attributes/table');
    expect(whole(reported(failure))).toEqual(whole(codedError('EVAL_LOOKUP_NO_MATCH', 'no table key matches null and the table has no default', { path: '/attributes/table' })));
  });

  it('keeps the path the innermost transform gave it, and details made when it is reported', () => {
    let made = 0;
    const failure = new Failure('TEMPLATE_RENDER', 'Error rendering template', undefined, () => ({ line: ++made }));
    failure.path = '/attributes/value';
    expect(made).toBe(0);
    expect(whole(reported(failure))).toEqual(whole(new TransformsError('TEMPLATE_RENDER', 'Error rendering template', { path: '/attributes/value', details: { line: 1 } })));
  });

  it('reports a failure it was caused by as the coded error that one stands for', () => {
    const inner = new Failure('EVAL_LOOKUP_NO_MATCH', 'no match', '/attributes/table');
    const outer = new Failure('EVAL_LOOKUP_NO_MATCH', 'in referenced transform "T": no match', '/attributes/id', { transform: 'T' }, inner);
    const expected = codedError('EVAL_LOOKUP_NO_MATCH', 'in referenced transform "T": no match', {
      path: '/attributes/id',
      details: { transform: 'T' },
      cause: codedError('EVAL_LOOKUP_NO_MATCH', 'no match', { path: '/attributes/table' }),
    });
    expect(whole(reported(outer))).toEqual(whole(expected));
  });

  it('leaves anything that is not a failure as it is', () => {
    const error = codedError('EVAL_INTERNAL', 'x');
    const other = new RangeError('y');
    expect(reported(error)).toBe(error);
    expect(reported(other)).toBe(other);
    expect(reported('text')).toBe('text');
  });

  it('counts as coded where a code, message and path are read', () => {
    expect(isCodedFailure(new Failure('EVAL_INTERNAL', 'x'))).toBe(true);
    expect(isCodedFailure(codedError('EVAL_INTERNAL', 'x'))).toBe(true);
    expect(isCodedFailure(new Error('x'))).toBe(false);
    expect(new Failure('EVAL_INTERNAL', 'x')).not.toBeInstanceOf(Error);
  });
});
