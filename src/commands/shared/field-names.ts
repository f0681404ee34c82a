/**
 * `--fields` with no list: the fields the command's records have, as dot
 * paths (`product.title`), read from the zod schema it declared (see
 * `printsRecords` in command-kit.ts). A usage error (exit 2): nothing is sent.
 */
import type { Command } from 'commander';
import { UsageError } from '../../lib/errors.js';
import { recordFieldsOf, type RecordSchema } from './command-kit.js';

interface Def { type: string; innerType?: Schema; shape?: Record<string, Schema> }
interface Schema { _zod: { def: Def } }

/** Leaves of an object schema as dot paths; optional and nullable wrappers see through, arrays are leaves. */
export function schemaPaths(schema: Schema, prefix = ''): string[] {
  const { def } = schema._zod;
  if (def.innerType && (def.type === 'optional' || def.type === 'nullable')) return schemaPaths(def.innerType, prefix);
  if (def.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([key, value]) => {
    const nested = schemaPaths(value, `${prefix}${key}.`);
    return nested.length > 0 ? nested : [`${prefix}${key}`];
  });
}

export async function fieldNames(command: Command): Promise<string[] | undefined> {
  const declared = recordFieldsOf(command);
  if (declared === undefined || typeof declared !== 'string') return declared && [...declared];
  const schemas = await import('../../api/endpoints/schemas.js');
  return schemaPaths(schemas[declared satisfies RecordSchema] as unknown as Schema);
}

export async function listFieldsError(command: Command, path: string): Promise<UsageError> {
  const names = await fieldNames(command);
  if (!names) return new UsageError(`--fields needs a comma-separated list of fields; run \`${path} -o json\` to see those \`${path}\` prints`);
  return new UsageError(`--fields needs a comma-separated list of fields of \`${path}\`:\n  ${names.join('\n  ')}`);
}
