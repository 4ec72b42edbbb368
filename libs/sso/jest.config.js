module.exports = require('../../jest.preset.js').projectConfig(__dirname);
