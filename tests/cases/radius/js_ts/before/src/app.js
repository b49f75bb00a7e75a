const lib = require('./lib');
const react = require('react');
import('./index');
