/**
 * The build gives undici stand-ins for node:http and node:assert; namesTaken
 * is its tripwire: an undici that takes more from them, or uses them in a way
 * it cannot follow, must fail the build rather than get `undefined`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { namesTaken } from '../../../scripts/build/undici-stand-ins.mjs';

const undici = (file: string) => readFileSync(new URL(`../../../node_modules/undici/lib/${file}`, import.meta.url), 'utf8');

describe('namesTaken', () => {
  it("reads what this undici takes: IncomingMessage, maxHeaderSize, and assert() alone", () => {
    expect(namesTaken(undici('core/util.js'), 'node:http')).toEqual(['IncomingMessage']);
    expect(new Set(namesTaken(undici('dispatcher/client.js'), 'node:http'))).toEqual(new Set(['maxHeaderSize']));
    expect(namesTaken(undici('dispatcher/client.js'), 'node:assert')).toEqual([]);
  });

  it('sees every require, in either quotes, with let or var, across lines, with optional chaining', () => {
    expect(namesTaken(`const { STATUS_CODES } = require("node:http")`, 'node:http')).toEqual(['STATUS_CODES']);
    expect(namesTaken(`let http = require('node:http')\nhttp.METHODS`, 'node:http')).toEqual(['METHODS']);
    expect(namesTaken(`const { IncomingMessage, } = require('node:http')\nvar { METHODS: m } = require('node:http')`, 'node:http'))
      .toEqual(['IncomingMessage', 'METHODS']);
    expect(namesTaken(`const assert = require('node:assert')\nassert?.ok(x)\nassert\n  .deepStrictEqual(a, b)\nassert(y)`, 'node:assert'))
      .toEqual(['ok', 'deepStrictEqual']);
  });

  it('gives up (the build fails) on a use it cannot follow', () => {
    for (const source of [
      `const codes = require('node:http').STATUS_CODES`,
      `const http = require('node:http')\nconst { METHODS } = http`,
      `const http = require('node:http')\nhttp['METHODS']`,
      `const http = require('node:http')\nuse(http)`,
      `const assert = require('node:assert')\nmodule.exports = { assert }`,
      `const { ...all } = require('node:http')`,
      `no require at all`,
    ]) expect(namesTaken(source, source.includes('assert') ? 'node:assert' : 'node:http'), source).toBeUndefined();
  });

  it('ignores the name in comments and strings', () => {
    expect(namesTaken(`const http = require('node:http')\n// http module\nconst m = 'http module not available'\nhttp && http.maxHeaderSize`, 'node:http'))
      .toEqual(['maxHeaderSize']);
  });
});
