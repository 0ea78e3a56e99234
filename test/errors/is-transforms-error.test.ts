// isTransformsError recognises a coded error whichever copy of the errors module made it: the
// refresh workers' one-file bundle inlines the module, and a rules module a thread imports
// throws the package's.

import { describe, expect, it } from 'vitest';
import { codedError, isTransformsError, TransformsError } from '../../src/errors/index.js';

describe('isTransformsError', () => {
  it('is true for a TransformsError of another copy of the errors module, false for other errors', async () => {
    // A query makes the module loader evaluate the file again: a second class, as in the bundle.
    const another = '../../src/errors/index.ts?another-copy';
    const copy = (await import(/* @vite-ignore */ another)) as typeof import('../../src/errors/index.js');
    const foreign = copy.codedError('EVAL_RULE_FAILED', 'from the other copy');
    expect(copy.TransformsError).not.toBe(TransformsError);
    expect(foreign instanceof TransformsError).toBe(false);
    expect(isTransformsError(foreign)).toBe(true);
    expect(isTransformsError(codedError('EVAL_RULE_FAILED', 'from this copy'))).toBe(true);
    expect(isTransformsError(new Error('plain'))).toBe(false);
    expect(isTransformsError({ code: 'EVAL_RULE_FAILED', message: 'data only' })).toBe(false);
  });
});
