// The error a promise rejects with, when it is of the expected class (the kit's own error
// classes: TransformPropertyError, FixtureIdentitiesError); anything else fails the test.

export async function rejectionOf<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a rejection with ${type.name}, but the promise resolved`);
}
