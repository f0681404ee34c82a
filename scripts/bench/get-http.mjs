// The same GET as get-undici.mjs with node:http: the cheapest client in a fresh process.
import { get } from 'node:http';

const { MEMBERS_BASE_URL: base, MEMBERS_TOKEN: token } = process.env;
const url = `${base}/api/v1/students/${encodeURIComponent(process.argv[2])}`;
get(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' } }, (response) => {
  const chunks = [];
  response.on('data', (chunk) => chunks.push(chunk));
  response.on('end', () => {
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    process.stdout.write(`${JSON.stringify(body.data)}\n`);
  });
}).on('error', (error) => {
  throw error;
});
