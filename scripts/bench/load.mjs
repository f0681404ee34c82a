// Sandbox throughput: CONNECTIONS keep-alive connections, each sending
// GET PATH one after another for SECONDS (after one second of warm-up).
// Prints {"requests":…,"seconds":…,"per_second":…,"p50_ms":…,"p99_ms":…}.
// Usage: node load.mjs BASE_URL TOKEN PATH CONNECTIONS SECONDS
/* global performance */
import { Pool } from 'undici';

const [base, token, path, connections, seconds] = process.argv.slice(2);
const pool = new Pool(base, { connections: Number(connections), pipelining: 1, keepAliveTimeout: 30_000 });
const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'bench' };
const latencies = [];
let counting = false;
let requests = 0;
let stop = false;

async function client() {
  while (!stop) {
    const started = performance.now();
    const response = await pool.request({ path, method: 'GET', headers });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    if (counting) {
      requests++;
      latencies.push(performance.now() - started);
    }
  }
}

const clients = Array.from({ length: Number(connections) }, client);
await new Promise((resolve) => setTimeout(resolve, 1000));
counting = true;
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, Number(seconds) * 1000));
counting = false;
const elapsed = (performance.now() - started) / 1000;
stop = true;
await Promise.all(clients);
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
process.stdout.write(`${JSON.stringify({ requests, seconds: elapsed, per_second: requests / elapsed, p50_ms: at(0.5), p99_ms: at(0.99) })}\n`);
