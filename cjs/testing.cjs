'use strict';
// require('identity-transforms/testing'): see require.cjs.
module.exports = require('./require.cjs').requireEsm('identity-transforms/testing', () => require('../dist/testing/index.js'));
