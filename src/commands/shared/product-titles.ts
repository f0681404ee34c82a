/**
 * Product titles for messages that would otherwise name a product by its
 * UUID alone (undo's questions, plans and results): the catalog cache first
 * (no request), then one read of the products list for the ids it lacks.
 */
import { readCatalog } from '../../config/catalog-cache.js';
import type { Session } from '../../session/session.js';

/**
 * Titles by id for `productIds`. `read: false` asks nothing of the server
 * (before a question that fails off a terminal, nothing is sent). Offline or
 * refused, what the cache knows.
 */
export async function productTitlesOf(session: Session, productIds: readonly string[], { read = true } = {}): Promise<Map<string, string>> {
  const { baseUrl } = await session.settings();
  const cached = new Map(baseUrl ? readCatalog(await session.configDir(), baseUrl, 'products').map((item) => [item.id, item.title]) : []);
  if (!read || productIds.every((id) => cached.has(id))) return cached;
  try {
    const [{ productTitles }, api] = await Promise.all([import('../../domain/names.js'), session.api()]);
    return new Map([...cached, ...await productTitles(api)]);
  } catch {
    return cached;
  }
}
