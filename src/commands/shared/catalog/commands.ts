/** `list` and `get` of products and courses (commands/shared/catalog/flags.ts declares them). */
import type { Api } from '../../../api/client.js';
import { listCollection } from '../../../api/endpoints/catalog.js';
import { byIdOrName, type Named } from '../../../domain/names.js';
import type { JsonRecord, View } from '../../../output/index.js';
import { listOptions, printPagedList, type ListFlags } from '../list-flags.js';
import { withOutput } from '../../../session/run-kit.js';
import type { Session } from '../../../session/session.js';

/** A catalog of the API: its collection, how it looks, and how one of it is read by id or found by name. */
export interface Catalog {
  collection: 'products' | 'courses';
  noun: 'product' | 'course';
  listView: View;
  view: View;
  get(api: Api, id: string): Promise<JsonRecord>;
  resolve(api: Api, input: string): Promise<Named>;
}

/** One page, or every page; a run that read the whole list keeps its ids and titles for completion. */
export async function listCatalog(session: Session, catalog: Catalog, flags: ListFlags): Promise<void> {
  const walk = listOptions(flags);
  const api = await session.api();
  await printPagedList(session, catalog.listView, walk, (options) => listCollection(api, catalog.collection, options) as AsyncIterable<JsonRecord>,
    (records) => api.onCatalog?.(catalog.collection, records as unknown as Named[]));
}

/** The record `input` names: by id first, by title when the server knows no such id. */
export async function getCatalogItem(session: Session, catalog: Catalog, input: string): Promise<void> {
  const api = await session.api();
  await withOutput(session, async (output) => output.one(
    await byIdOrName(input, (id) => catalog.get(api, id), () => catalog.resolve(api, input), catalog.noun), catalog.view,
  ));
}
