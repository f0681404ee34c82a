import type { Pager } from '../lib/io.js';

/**
 * The pager, started without a shell: its command line is words, as gh reads
 * PAGER. `less` gets gh's defaults when the user set none (quit at the end of
 * one screen, colour, no screen clearing). A pager that cannot start leaves
 * the output to stdout.
 */
export async function startPager(command: string): Promise<Pager | undefined> {
  const { spawn } = await import('node:child_process');
  const [file = '', ...args] = command.split(/\s+/);
  const child = spawn(file, args, {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, LESS: process.env.LESS ?? 'FRX', LV: process.env.LV ?? '-c' },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) return undefined;
  let closed = false;
  const stdin = child.stdin;
  stdin.on('error', () => (closed = true));
  stdin.on('close', () => (closed = true));
  return {
    stdin: {
      write: (chunk) => stdin.write(chunk),
      // Quitting the pager closes the pipe: a writer waiting for 'drain' is woken then too.
      once: (_event: 'drain', listener: () => void) => {
        const wake = () => {
          stdin.off('drain', wake).off('close', wake);
          listener();
        };
        stdin.on('drain', wake).on('close', wake);
      },
      isTTY: true,
      columns: process.stdout.columns,
      get closed() {
        return closed;
      },
      end: () => void stdin.end(),
    },
    exited: new Promise((resolve) => child.once('close', () => resolve())),
  };
}
