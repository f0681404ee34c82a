// The floor of `members RESOURCE list --all -o ndjson` (students, subscriptions): page 1 for last_page,
// then the other pages CONCURRENCY at a time in order with undici's request(), the records written as
// NDJSON; with STATUSES, only the subscriptions of those statuses with access (`--status S --access
// active`). Nothing else.
// Usage: node list-min.mjs RESOURCE CONCURRENCY [STATUSES]
import { request } from 'undici';

const [resource, concurrency, statuses] = process.argv.slice(2);
const wanted = statuses === undefined ? undefined : new Set(statuses.split(','));
const { MEMBERS_BASE_URL: base, MEMBERS_TOKEN: token } = process.env;
const page = async (number) => {
  const response = await request(`${base}/api/v1/${resource}?per_page=100&page=${number}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' },
  });
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  return response.body.json();
};
const write = (records) => {
  let chunk = '';
  for (const record of records) if (!wanted || (wanted.has(record.status) && record.active === 1)) chunk += `${JSON.stringify(record)}\n`;
  if (chunk) process.stdout.write(chunk);
};
const first = await page(1);
write(first.data);
const last = first.meta.last_page;
const inFlight = [];
let next = 2;
const refill = () => {
  while (inFlight.length < Number(concurrency) && next <= last) inFlight.push(page(next++));
};
refill();
while (inFlight.length > 0) {
  const body = await inFlight.shift();
  refill();
  write(body.data);
}
