import type { Command } from 'commander';
import type { Runner } from '../../program.js';

export function registerMagicLink(_program: Command, _runner: Runner): void {}
