/**
 * `members mcp`'s first answers, given before the program loads (src/entry/mcp-front.ts): each must be
 * the SDK's own answer, byte for byte, and whatever the front is not sure of must reach the SDK, with
 * the messages that set its state, exactly once.
 */
import { PassThrough } from 'node:stream';
import { InMemoryTransport, SUPPORTED_PROTOCOL_VERSIONS, type McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpSettings, toolsFor } from '../../../src/commands/mcp/actions.js';
import { listingFor } from '../../../src/commands/mcp/listing.js';
import { createServer, serve } from '../../../src/commands/mcp/server.js';
import { LISTING } from '../../../src/commands/mcp/tools/listing.js';
import { REPLAYED_ID, answerHandshake, frontOptions, handedOver, stopped, writerTo, type Handshake } from '../../../src/entry/mcp-front.js';
import type { Io } from '../../../src/lib/io.js';
import type { Session } from '../../../src/session/session.js';
import { fakeIo } from '../../helpers/fake-io.js';

const session = { version: __MEMBERS_VERSION__ } as unknown as Session;

const initialize = (id: unknown, protocolVersion = '2025-06-18', extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: { elicitation: {} }, clientInfo: { name: 'desk', version: '1.0' }, ...extra },
});
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const request = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const lines = (...messages: unknown[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join('');
/** Capabilities whose initialize the SDK refuses (its ClientCapabilitiesSchema checks inside the capabilities it knows). */
const REFUSED_CAPABILITIES = [
  { experimental: { feature: 1 } }, { extensions: { 'io.example/x': 'on' } }, { sampling: { context: 5 } }, { sampling: { tools: [] } },
  { elicitation: { form: 5 } }, { elicitation: { form: { applyDefaults: 'yes' } } }, { elicitation: { url: true } }, { roots: null },
  { tasks: { list: 5 } }, { tasks: { cancel: [] } }, { tasks: { requests: { sampling: 1 } } }, { tasks: { requests: { elicitation: { create: 'x' } } } },
];

/** The SDK's server, as `members mcp` makes it, answering `messages` in order: each answer as its stdio transport writes it. */
async function sdkAnswers(messages: unknown[], allowWrites = false): Promise<string[]> {
  const settings = mcpSettings({ maxRows: '50', allowWrites });
  const { mcp } = createServer(session, settings, { listing: listingFor(LISTING, allowWrites), load: () => toolsFor(settings) });
  return exchange(mcp, messages);
}

async function exchange(mcp: McpServer, messages: unknown[]): Promise<string[]> {
  const [client, end] = InMemoryTransport.createLinkedPair();
  const answers: string[] = [];
  const expected = messages.filter((message) => (message as { id?: unknown }).id !== undefined).length;
  const done = new Promise<void>((resolve) => {
    client.onmessage = (message) => {
      answers.push(`${JSON.stringify(message)}\n`);
      if (answers.length === expected) resolve();
    };
  });
  await mcp.connect(end);
  await client.start();
  for (const message of messages) await client.send(message as never);
  await done;
  await mcp.close();
  return answers;
}

/** The front on `input`: what it wrote, and the hand-over once it comes. */
function front(input: string, options = { allowWrites: false }, end = false) {
  const stdin = new PassThrough();
  const written: string[] = [];
  const handedOff = new Promise<Handshake>((resolve) => answerHandshake(stdin, (text) => written.push(text), options, resolve));
  stdin.write(input);
  if (end) stdin.end();
  return { stdin, written, handedOff };
}

describe('the command lines the front answers', () => {
  it('takes `mcp` with the flags it knows, each valid', () => {
    expect(frontOptions(['mcp'])).toEqual({ allowWrites: false });
    expect(frontOptions(['mcp', '--allow-writes'])).toEqual({ allowWrites: true });
    expect(frontOptions(['mcp', '--show-personal-data', '--max-rows', '20', '--profile', 'desk'])).toEqual({ allowWrites: false });
    expect(frontOptions(['mcp', '--max-rows=1000', '-p', 'desk', '--allow-writes', '--profile=x'])).toEqual({ allowWrites: true });
    expect(frontOptions(['mcp', '--max-rows', '1'])).toEqual({ allowWrites: false });
  });

  it('leaves to the program every other: other commands, --check, --help, unknown flags, bad or missing values', () => {
    for (const argv of [
      [], ['students'], ['-p', 'desk', 'mcp'], ['mcp', '--check'], ['mcp', '--help'], ['mcp', 'tools'], ['mcp', '--bogus'],
      ['mcp', '--max-rows', '0'], ['mcp', '--max-rows', '1001'], ['mcp', '--max-rows', '05'], ['mcp', '--max-rows', 'many'], ['mcp', '--max-rows'],
      ['mcp', '--max-rows=', '--allow-writes'], ['mcp', '--profile'], ['mcp', '--profile', '--allow-writes'], ['mcp', '-p='], ['mcp', '--allow-writes=yes'],
      ['mcp', '--max-rows', '12a'], ['mcp', '--max-rows', 'x12'], ['mcp', '--profile='], ['mcp', '--profile', ''], ['mcp', '-p=desk'], ['mcp', '-p', '-x'],
    ]) {
      expect({ argv, options: frontOptions(argv) }).toEqual({ argv, options: undefined });
    }
  });
});

describe('the front\'s answers are the SDK\'s', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`initialize asking for ${version}, then ping and tools/list`, async () => {
      const messages = [initialize(1, version), INITIALIZED, request('p-1', 'ping'), request(2, 'tools/list'), request(3, 'ping', {})];
      const { written, handedOff } = front(lines(...messages));
      const handshake = await handedOff;
      // The hand-over comes right after tools/list: the ping after it is the SDK's to answer.
      expect(written).toEqual((await sdkAnswers(messages)).slice(0, 3));
      // The SDK reads initialize again under the front's own id, whose answer is dropped.
      expect(handshake.replay).toBe(lines(initialize(REPLAYED_ID, version), INITIALIZED, request(3, 'ping', {})));
      expect(handshake.ended).toBe(false);
      expect([...handshake.answers]).toEqual([[JSON.stringify(REPLAYED_ID), (await sdkAnswers([initialize(REPLAYED_ID, version)]))[0]]]);
    });
  }

  it('ping and tools/list with empty params, a client with every field the front knows, roots that may change', async () => {
    const messages = [
      { ...initialize(7), params: { ...initialize(7).params, capabilities: { roots: { listChanged: true }, elicitation: {} }, clientInfo: { name: 'a', version: '1', title: 'A', description: 'd', websiteUrl: 'https://a.example' } } },
      { ...INITIALIZED, params: {} }, request(8, 'ping', {}), request(9, 'tools/list', {}),
    ];
    const { written, handedOff } = front(lines(...messages));
    await handedOff;
    expect(written).toEqual(await sdkAnswers(messages));
  });

  it('capabilities the SDK checks inside, each as it takes them: answered as the SDK answers them', async () => {
    const capabilities = {
      experimental: { feature: { on: 1 } }, extensions: { 'io.example/x': {} }, sampling: { context: {}, tools: {}, other: 5 }, roots: {},
      elicitation: { form: { applyDefaults: true, more: [1] }, url: {}, other: 'x' }, custom: { x: [] },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} }, tools: 1 }, other: 1 },
    };
    for (const caps of [capabilities, { elicitation: { form: {} } }, { tasks: { requests: {} } }]) {
      const messages = [{ ...initialize(1), params: { ...initialize(1).params, capabilities: caps } }, request(2, 'tools/list')];
      const { written, handedOff } = front(lines(...messages));
      await handedOff;
      expect({ caps, written }).toEqual({ caps, written: await sdkAnswers(messages) });
    }
  });

  it('capabilities the SDK refuses (which the front leaves to it): refused by the SDK indeed', async () => {
    for (const capabilities of REFUSED_CAPABILITIES) {
      const [answer] = await sdkAnswers([{ ...initialize(1), params: { ...initialize(1).params, capabilities } }]);
      expect({ capabilities, answer }).toEqual({ capabilities, answer: expect.stringContaining('"error":') });
    }
  });

  it('a line cut across chunks, a character cut across bytes: read whole', async () => {
    const stdin = new PassThrough();
    const written: string[] = [];
    const handedOff = new Promise<Handshake>((resolve) => answerHandshake(stdin, (text) => written.push(text), { allowWrites: false }, resolve));
    const init = Buffer.from(lines({ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'José', version: '1' } } }));
    const cut = init.indexOf(Buffer.from('é')) + 1;
    stdin.write(init.subarray(0, cut));
    stdin.write(init.subarray(cut));
    const list = lines(request(2, 'tools/list'));
    stdin.write(list.slice(0, 10));
    stdin.write(list.slice(10));
    const handshake = await handedOff;
    expect(written).toHaveLength(2);
    expect(handshake.replay).toBe(init.toString('utf8').replace('"id":1', `"id":"${REPLAYED_ID}"`));
  });

  it('tools/list with --allow-writes, and string ids', async () => {
    const messages = [initialize('init'), request('list', 'tools/list')];
    const { written } = front(lines(...messages), { allowWrites: true });
    const sdk = await sdkAnswers(messages, true);
    expect(sdk[1]).toContain('"name":"grant_product"');
    expect(written).toEqual(sdk);
  });
});

describe('what goes to the SDK', () => {
  const cases: Array<[string, unknown[]]> = [
    ['a revision the SDK would answer with another', [initialize(1, '2024-01-01')]],
    ['a revision of the modern era', [initialize(1, '2026-07-28')]],
    ['initialize with _meta', [initialize(1, '2025-06-18', { _meta: { progressToken: 1 } })]],
    ['client info with icons', [{ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'a', version: '1', icons: [] } } }]],
    ['client info without a version', [{ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'a' } } }]],
    ['a capability that is not an object', [{ ...initialize(1), params: { ...initialize(1).params, capabilities: { sampling: true } } }]],
    ['roots.listChanged that is not a boolean', [{ ...initialize(1), params: { ...initialize(1).params, capabilities: { roots: { listChanged: 'yes' } } } }]],
    ['a float id', [initialize(1.5)]],
    ['initialize as a notification', [{ ...initialize(1), id: undefined }]],
    ['another method with initialize\'s params', [{ ...initialize(1), method: 'tools/call' }]],
    ['client info that is not an object', [{ ...initialize(1), params: { ...initialize(1).params, clientInfo: 'desk' } }]],
    ['client info with a version that is not a string', [{ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'a', version: 1 } } }]],
    ['client info without a name', [{ ...initialize(1), params: { ...initialize(1).params, clientInfo: { version: '1' } } }]],
    ['capabilities, one of them not an object', [{ ...initialize(1), params: { ...initialize(1).params, capabilities: { elicitation: {}, sampling: [] } } }]],
    ['capabilities that are a list', [{ ...initialize(1), params: { ...initialize(1).params, capabilities: [] } }]],
    ['params that are a list', [{ ...initialize(1), params: [] }]],
    ['a blank line', []],
    ['a message with a key JSON-RPC has not', [{ ...initialize(1), extra: true }]],
    ['JSON-RPC 1.0', [{ ...initialize(1), jsonrpc: '1.0' }]],
    ['a batch', [[initialize(1)]]],
    ['tools/list before initialize', [request(1, 'tools/list')]],
    ['ping before initialize', [request(1, 'ping')]],
    // The SDK checks inside the capabilities it knows too (its ClientCapabilitiesSchema), and refuses these.
    ...REFUSED_CAPABILITIES.map((capabilities): [string, unknown[]] => [`capabilities ${JSON.stringify(capabilities)}`, [{ ...initialize(1), params: { ...initialize(1).params, capabilities } }]]),
  ];
  for (const [what, messages] of cases) {
    it(`${what}: nothing answered, every line replayed`, async () => {
      const input = (messages.length === 0 ? '\n' : lines(...messages)) + lines(request(9, 'tools/list'));
      const { written, handedOff } = front(input);
      const handshake = await handedOff;
      expect(written).toEqual([]);
      expect(handshake).toEqual({ replay: input, ended: false, answers: new Map() });
    });
  }

  it('after initialize: a second initialize, a paginated tools/list, a call, a line that is not JSON, each with all that follows', async () => {
    for (const next of [
      lines(initialize(5)), lines(request(5, 'tools/list', { cursor: 'x' })), lines(request(5, 'tools/call', { name: 'list_products', arguments: {} })), '{"jsonrpc":\n',
      lines(request(5, 'prompts/list')), lines({ jsonrpc: '2.0', method: 'notifications/cancelled' }), lines({ ...INITIALIZED, id: 5 }),
      lines({ jsonrpc: '2.0', method: 'ping' }), lines({ jsonrpc: '2.0', method: 'tools/list' }), lines(request(5, 'ping', { x: 1 })),
    ]) {
      const rest = `${next}${lines(request(6, 'ping'), request(7, 'tools/list'))}{"partial`;
      const { written, handedOff } = front(lines(initialize(1), INITIALIZED) + rest);
      const handshake = await handedOff;
      expect({ next, written: written.length }).toEqual({ next, written: 1 });
      expect(handshake.replay).toBe(lines(initialize(REPLAYED_ID), INITIALIZED) + rest);
    }
  });

  it('stdin that fails: what was read, marked ended', async () => {
    const { stdin, handedOff } = front(lines(initialize(1)));
    stdin.destroy(new Error('gone'));
    expect(await handedOff).toMatchObject({ replay: lines(initialize(REPLAYED_ID)), ended: true });
  });

  it('stdin that ends: what was read, marked ended', async () => {
    const { written, handedOff } = front(lines(initialize(1)), undefined, true);
    const handshake = await handedOff;
    expect(written).toHaveLength(1);
    expect(handshake).toMatchObject({ replay: lines(initialize(REPLAYED_ID)), ended: true });
    expect((await front('', undefined, true).handedOff)).toEqual({ replay: '', ended: true, answers: new Map() });
  });

  it('a line longer than a megabyte without its end', async () => {
    const long = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"${'a'.repeat(1 << 20)}`;
    const { written, handedOff } = front(long);
    expect((await handedOff).replay).toBe(long);
    expect(written).toEqual([]);
  });

  it('a line of exactly a megabyte is still waited for', async () => {
    const exact = lines(initialize(1)).slice(0, -1).padEnd(1 << 20, ' ');
    const { stdin, written, handedOff } = front(exact);
    stdin.write(`\n${lines(request(2, 'tools/list'))}`);
    expect((await handedOff).replay).toBe(lines(initialize(REPLAYED_ID)));
    expect(written).toHaveLength(2);
  });

  it('reads nothing more of stdin once it hands over: the program reads the rest', async () => {
    const { stdin, handedOff } = front(lines(initialize(1), request(2, 'tools/list')));
    await handedOff;
    expect(['data', 'end', 'error'].map((event) => stdin.listenerCount(event))).toEqual([0, 0, 0]);
    expect(stdin.isPaused()).toBe(true);
  });
});

describe('the front and the SDK together', () => {
  it('a client that reuses initialize\'s id for a request the SDK refuses at once gets that refusal, and initialize\'s answer once', async () => {
    // JSON-RPC allows it once initialize is answered (MCP does not, but the SDK answers it). The SDK refuses an unknown method before it answers the replayed initialize.
    const { written, handedOff } = front(lines(initialize(1), INITIALIZED, request(1, 'prompts/list')));
    const handshake = await handedOff;
    const fake = fakeIo();
    let stdout = '';
    let answered = () => undefined as void;
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    const io = handedOver({ ...fake.io, stdout: { write: (chunk) => ((stdout += String(chunk)), answered(), true) } }, handshake, new PassThrough());
    const settings = mcpSettings({ maxRows: '50', allowWrites: false });
    const { mcp } = createServer(session, settings, { listing: listingFor(LISTING, false), load: () => toolsFor(settings) });
    const served = await serve(mcp, io);
    await firstAnswer;
    // The SDK answers the replayed initialize a few promise turns later, within this turn of the event loop.
    await new Promise(setImmediate);
    await served.close();
    expect(written).toEqual(await sdkAnswers([initialize(1)]));
    expect({ stdout, stderr: fake.stderr() }).toEqual({ stdout: '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}\n', stderr: '' });
  });
});

describe('the front\'s answers on stdout', () => {
  it('writes them, and takes a client that closed its end (EPIPE, EIO) as the program does; any other error is one', () => {
    const stdout = new PassThrough();
    writerTo(stdout)('{"result":{}}\n');
    expect(String(stdout.read())).toBe('{"result":{}}\n');
    const failure = (code: string) => Object.assign(new Error(code), { code });
    expect(() => stdout.emit('error', failure('EPIPE'))).not.toThrow();
    expect(() => stdout.emit('error', failure('EIO'))).not.toThrow();
    expect(() => stdout.emit('error', failure('ENOSPC'))).toThrow('ENOSPC');
  });

  it('says on stderr, as the program\'s error, the signal that stopped it while it waited for the client', () => {
    expect(stopped('SIGINT')).toBe('error: SIGINT: the assistant\'s server stopped\n');
  });
});

describe('the program\'s Io after the hand-over', () => {
  const handshake = (replay: string, ended = false): Handshake => ({
    replay, ended, answers: new Map([['1', '{"result":{"ours":true},"jsonrpc":"2.0","id":1}\n']]),
  });

  async function readAll(io: Io): Promise<string> {
    let text = '';
    for await (const chunk of io.stdin) text += String(chunk);
    return text;
  }

  it('reads the replay, then the rest of stdin, from its first read on', async () => {
    const stdin = new PassThrough();
    stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    const io = handedOver(fakeIo().io, handshake('{"replayed":1}\n'), stdin);
    expect(stdin.listenerCount('data')).toBe(0);
    const all = readAll(io);
    stdin.end('{"last":1}\n');
    expect(await all).toBe('{"replayed":1}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n{"last":1}\n');
    expect(io.stdin).toBe(io.stdin);
  });

  it('stops reading stdin when the program stops reading its own (the SDK closes on a signal, the client still connected)', () => {
    const stdin = new PassThrough();
    const io = handedOver(fakeIo().io, handshake(''), stdin);
    io.stdin.on('data', () => undefined);
    expect(stdin.readableFlowing).toBe(true);
    io.stdin.pause();
    expect(stdin.readableFlowing).toBe(false);
  });

  it('reads the replay alone when stdin ended before', async () => {
    const stdin = new PassThrough();
    stdin.end();
    stdin.resume();
    await new Promise((resolve) => stdin.once('end', resolve));
    expect(await readAll(handedOver(fakeIo().io, handshake('{"replayed":1}\n', true), stdin))).toBe('{"replayed":1}\n');
  });

  it('drops the SDK\'s first answer to each id the front answered, however it is cut, and passes the rest', () => {
    const fake = fakeIo();
    const io = handedOver(fake.io, handshake(''), new PassThrough());
    const ours = '{"result":{"ours":true},"jsonrpc":"2.0","id":1}\n';
    io.stdout.write('\nnot JSON\n{"jsonrpc":"2.0","id":1,"method":"elicitation/create"}\n{"jsonrpc":"2.0","id":1}\n');
    io.stdout.write(ours.slice(0, 10));
    io.stdout.write(ours.slice(10) + '{"result":{},"jsonrpc":"2.0","id":2}\n');
    io.stdout.write(ours);
    expect(fake.stdout()).toBe(`\nnot JSON\n{"jsonrpc":"2.0","id":1,"method":"elicitation/create"}\n{"jsonrpc":"2.0","id":1}\n{"result":{},"jsonrpc":"2.0","id":2}\n${ours}`);
    expect(fake.stderr()).toBe('');
    expect(io.env).toBe(fake.io.env);
  });

  it('says on stderr when the SDK answered otherwise (a bug, here a refusal), and still sends the client nothing twice', () => {
    const fake = fakeIo();
    const io = handedOver(fake.io, handshake(''), new PassThrough());
    io.stdout.write(Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32602}}\n'));
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe('warning: members mcp answered the client before its program loaded, and the SDK then answered otherwise; please report it.\n'
      + '  sent:    {"result":{"ours":true},"jsonrpc":"2.0","id":1}\n  the SDK: {"jsonrpc":"2.0","id":1,"error":{"code":-32602}}\n');
  });

  it('writes nothing for what it drops, and passes the rest as it comes once nothing is left to drop', () => {
    const chunks: Array<string | Uint8Array> = [];
    const io = handedOver({ ...fakeIo().io, stdout: { write: (chunk) => chunks.push(chunk) > 0 } }, handshake(''), new PassThrough());
    expect(io.stdout.write('{"result":{"ours":true},"jsonrpc":"2.0","id":1}\n{"result":{},"jsonrpc"')).toBe(true);
    expect(chunks).toEqual(['{"result":{},"jsonrpc"']);
    const bytes = Buffer.from(':"2.0","id":2}\n');
    io.stdout.write(bytes);
    expect(chunks[1]).toBe(bytes);
  });
});
