// fast-check is an optional peer dependency: only `identity-transforms/testing` needs it, and a
// project that only validates or refreshes should not install it. Loaded here with a dynamic
// import so that a missing package is a clear message instead of Node's resolution error; the
// instance is the project's own fast-check, so arbitraries mix with its `fc.assert`.
import type * as FastCheck from 'fast-check';

async function load(): Promise<typeof FastCheck> {
  try {
    return await import('fast-check');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes("'fast-check'")) {
      throw new Error(
        "identity-transforms/testing needs the fast-check package (an optional peer dependency, >= 4): run 'npm install --save-dev fast-check'",
        { cause: error },
      );
    }
    throw error;
  }
}

const fc = (await load()).default;

// The types fast-check's namespace gives to `fc.Arbitrary<T>` in type positions.
declare namespace fc {
  export type Arbitrary<T> = FastCheck.Arbitrary<T>;
  export type WeightedArbitrary<T> = FastCheck.WeightedArbitrary<T>;
}

export default fc;
