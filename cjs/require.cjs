'use strict';
// require('identity-transforms') and its sub-paths: the package is ES modules. Where Node can
// require() an ES module (20.19+, 22.12+), the sub-path's module is returned as it is; elsewhere
// (and for `/testing`, which loads fast-check with a top-level await) the error says what to do.

/** @param {string} specifier the sub-path the caller asked for @param {() => unknown} load */
exports.requireEsm = function requireEsm(specifier, load) {
  try {
    return load();
  } catch (error) {
    const code = error && error.code;
    if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') {
      const hint = code === 'ERR_REQUIRE_ESM' ? 'this Node.js version cannot require() an ES module' : 'it has a top-level await';
      throw Object.assign(
        new Error(`${specifier} is an ES module and cannot be loaded with require() (${hint}): use import ... from '${specifier}', or await import('${specifier}') from CommonJS`, { cause: error }),
        { code: 'ERR_REQUIRE_ESM' },
      );
    }
    throw error;
  }
};
