// Round-trip time the sandbox actually gives: COUNT requests of GET PATH,
// CONCURRENCY at a time, over keep-alive connections. Prints
// {"mean_ms":…,"p50_ms":…,"p99_ms":…}. With --latency 20ms the mean says how
// far the machine itself is from the 20 ms of the ideal figures.
// Usage: node rtt.mjs BASE_URL TOKEN PATH CONCURRENCY COUNT
/* global performance */
import { Agent, request } from 'undici';

const [base, token, path, concurrency, count] = process.argv.slice(2);
const dispatcher = new Agent({ connections: Number(concurrency), keepAliveTimeout: 30_000 });
const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' };
const times = [];
let left = Number(count) + Number(concurrency); // the first request of each connection is not counted

async function client() {
  let first = true;
  while (left-- > 0) {
    const started = performance.now();
    const response = await request(base + path, { headers, dispatcher });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    if (!first) times.push(performance.now() - started);
    first = false;
  }
}

await Promise.all(Array.from({ length: Number(concurrency) }, client));
await dispatcher.close();
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
const mean = times.reduce((sum, ms) => sum + ms, 0) / times.length;
process.stdout.write(`${JSON.stringify({ mean_ms: mean, p50_ms: at(0.5), p99_ms: at(0.99), count: times.length })}\n`);
