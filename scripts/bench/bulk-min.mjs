// The floor of `members students grant --file F --concurrency N`: the same two
// requests per row (is the product already held? if not, grant it) with
// undici's request(), N rows in flight, nothing else: no validation, no
// output, no audit log. Usage: node bulk-min.mjs FILE CONCURRENCY
import { readFileSync } from 'node:fs';
import { request } from 'undici';

const [file, concurrency] = process.argv.slice(2);
const { MEMBERS_BASE_URL: base, MEMBERS_TOKEN: token } = process.env;
const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' };
const today = new Date().toISOString().slice(0, 10);
let next = 0;
let granted = 0;

async function worker() {
  while (next < rows.length) {
    const [student, product] = rows[next++];
    const held = await request(`${base}/api/v1/students/${student}/products/${product}`, { headers });
    await held.body.dump();
    if (held.statusCode !== 404) continue;
    const grant = await request(`${base}/api/v1/students/${student}/products`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: product, accession_date: today }),
    });
    await grant.body.json();
    if (grant.statusCode !== 201) throw new Error(`grant: status ${grant.statusCode}`);
    granted++;
  }
}

await Promise.all(Array.from({ length: Number(concurrency) }, worker));
if (granted !== rows.length) throw new Error(`granted ${granted} of ${rows.length}`);
