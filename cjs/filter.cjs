'use strict';
// require('identity-transforms/filter'): see require.cjs.
module.exports = require('./require.cjs').requireEsm('identity-transforms/filter', () => require('../dist/filter/index.js'));
