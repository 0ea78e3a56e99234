'use strict';
// require('identity-transforms'): see require.cjs.
module.exports = require('./require.cjs').requireEsm('identity-transforms', () => require('../dist/index.js'));
