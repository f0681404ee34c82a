/** `members mcp --check`: the tools an assistant would see. */
import type { View } from '../../output/index.js';

export const MCP_TOOLS_VIEW: View = {
  noun: 'tools',
  columns: [
    { header: 'tool', path: 'name' },
    { header: 'changes', path: 'changes' },
    { header: 'title', path: 'title', kind: 'text' },
  ],
};
