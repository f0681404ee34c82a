import type { Command } from 'commander';
import type { Runner } from '../../program.js';

export function registerStudents(_program: Command, _runner: Runner): void {}
