// The same GET as get-undici.mjs with Node's built-in fetch (the undici inside Node).
/* global fetch */
const { MEMBERS_BASE_URL: base, MEMBERS_TOKEN: token } = process.env;
const response = await fetch(`${base}/api/v1/students/${encodeURIComponent(process.argv[2])}`, {
  headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' },
});
const body = await response.json();
if (response.status !== 200) throw new Error(`status ${response.status}`);
process.stdout.write(`${JSON.stringify(body.data)}\n`);
