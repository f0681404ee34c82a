// The floor of `members report engaged-courses -o csv --out FILE`: follow
// next_cursor with undici's request() (the CLI's client), fetching the next
// page while writing the current one, and write every row as a CSV line to
// FILE. Usage: node report-min.mjs FILE TOP MAX_PAGES
/* global URLSearchParams */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { request } from 'undici';

const [file, top, maxPages] = process.argv.slice(2);
const { MEMBERS_BASE_URL: base, MEMBERS_DEVELOPER_TOKEN: developer, MEMBERS_PLATFORM_TOKEN: platform } = process.env;
const path = `${base}/api/partners/reports/engaged-courses/${developer}/${platform}`;
const out = createWriteStream(file);
const cell = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const page = async (cursor) => {
  const query = new URLSearchParams({ top_courses: top, limit: '500', ...(cursor ? { cursor } : {}) });
  const response = await request(`${path}?${query}`, { headers: { 'user-agent': 'bench', accept: 'application/json' } });
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  return response.body.json();
};
let columns;
let pages = 1;
let pending = page(undefined);
for (;;) {
  const body = await pending;
  const more = body.next_cursor && pages < Number(maxPages);
  if (more) {
    pending = page(body.next_cursor);
    pages++;
  }
  let chunk = '';
  for (const row of body.data) {
    if (!columns) {
      columns = Object.keys(row);
      chunk += `${columns.join(',')}\n`;
    }
    chunk += `${columns.map((key) => cell(row[key])).join(',')}\n`;
  }
  if (!out.write(chunk)) await once(out, 'drain');
  if (!more) break;
}
out.end();
await once(out, 'finish');
