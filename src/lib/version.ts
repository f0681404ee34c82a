/**
 * What a bug report needs, one a line: members's version, Node.js's, the
 * platform (contract §5, version). bin/members.js prints the same for
 * `--version` and `version` before the program loads; a test keeps the two equal.
 */
export interface Runtime {
  node: string;
  platform: string;
  arch: string;
}

export function versionText(runtime: Runtime = { node: process.version, platform: process.platform, arch: process.arch }): string {
  return `members ${__MEMBERS_VERSION__}\nNode.js ${runtime.node}\n${runtime.platform} ${runtime.arch}\n`;
}
