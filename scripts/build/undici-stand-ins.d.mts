import type { Plugin } from 'esbuild';

export function namesTaken(source: string, id: string): string[] | undefined;
export const undiciStandIns: Plugin;
