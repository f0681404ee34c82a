/**
 * Every tool as tools/list shows it, in the order it lists them (read, then
 * write). Derived here from the zod schemas; the build replaces this module
 * by its result, a constant (scripts/build/mcp-tool-listing.mjs).
 */
import { listed } from '../listing.js';
import { READ_TOOLS } from './read.js';
import { WRITE_TOOLS } from './write.js';

export const LISTING = [...READ_TOOLS, ...WRITE_TOOLS].map(listed);
