// `npm run bench` (group mcp): how soon `members mcp` answers its first tools/list, against `members --version`
// on the same machine in the same run (issue 39: at most 1.5×). Each round spawns both, in alternating order; a
// `members mcp` round is timed from the spawn to the tools/list answer, as a client waits for it, then its stdin is
// closed. Prints {"version_ms": [...], "mcp_ms": [...]}.
// Usage: node mcp-start.mjs BIN ROUNDS (the environment points at a sandbox with a config dir).
import { spawn } from 'node:child_process';

const [bin, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? '10');

function version() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, '--version'], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`--version exited ${code}`))));
  });
}

function toolsList() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    let buffer = '';
    let elapsed;
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          if (!Array.isArray(message.result?.tools) || message.result.tools.length === 0) reject(new Error('tools/list answered no tools'));
          elapsed = Number(process.hrtime.bigint() - start) / 1e6;
          child.stdin.end();
        }
      }
    });
    child.on('exit', (code) => (code === 0 && elapsed !== undefined ? resolve(elapsed) : reject(new Error(`members mcp exited ${code} before answering tools/list`))));
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  });
}

const times = { version_ms: [], mcp_ms: [] };
// Two warm-up rounds write the code cache, as a client's first start would.
for (let round = -2; round < rounds; round++) {
  const pair = round % 2 === 0 ? [['version_ms', version], ['mcp_ms', toolsList]] : [['mcp_ms', toolsList], ['version_ms', version]];
  for (const [key, run] of pair) {
    const ms = await run();
    if (round >= 0) times[key].push(ms);
  }
}
process.stdout.write(`${JSON.stringify(times)}\n`);
