// The floor of `members students get ID -o json` with the CLI's HTTP client:
// one GET with undici's request(), the record printed as JSON. Nothing else.
import { request } from 'undici';

const { MEMBERS_BASE_URL: base, MEMBERS_TOKEN: token } = process.env;
const response = await request(`${base}/api/v1/students/${encodeURIComponent(process.argv[2])}`, {
  headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' },
});
const body = await response.body.json();
if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
process.stdout.write(`${JSON.stringify(body.data)}\n`);
