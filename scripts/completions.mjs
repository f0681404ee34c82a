// Writes completions/ from the program itself (bin/members.js answers `completion SHELL` from these very files).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { main } = createRequire(import.meta.url)('../dist/main.cjs');

for (const [shell, file] of [['bash', 'members.bash'], ['zsh', '_members'], ['fish', 'members.fish'], ['powershell', 'members.ps1']]) {
  let text = '';
  const io = {
    stdout: { write: (chunk) => ((text += chunk), true) },
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt: () => () => undefined,
  };
  const code = await main(['completion', shell], io);
  if (code !== 0 || text === '') throw new Error(`members completion ${shell} failed (exit ${code})`);
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), text);
}
