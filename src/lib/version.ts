/**
 * What a bug report needs, one a line: members's version, Node.js's, the
 * platform (contract §25.1). bin/members.js prints the same for
 * `--version` and `version` before the program loads; a test keeps the two equal.
 */
export interface Runtime {
  node: string;
  platform: string;
  arch: string;
}

const thisRuntime = (): Runtime => ({ node: process.version, platform: process.platform, arch: process.arch });

export function versionText(runtime: Runtime = thisRuntime()): string {
  const { version, node, platform } = versionRecord(runtime);
  return `members ${version}\nNode.js ${node}\n${platform}\n`;
}

/** The same as a record, for `members version -o json`. */
export function versionRecord(runtime: Runtime = thisRuntime()): { version: string; node: string; platform: string } {
  return { version: __MEMBERS_VERSION__, node: runtime.node, platform: `${runtime.platform} ${runtime.arch}` };
}
