'use strict';
// require('identity-transforms/api'): see require.cjs.
module.exports = require('./require.cjs').requireEsm('identity-transforms/api', () => require('../dist/api/index.js'));
