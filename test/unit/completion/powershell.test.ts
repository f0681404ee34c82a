/**
 * PowerShell is not in Debian's packages, so the script is checked for its
 * structure: a native completer holding every command, its options and values.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/program.js';
import { completionScript } from '../../../src/commands/completion/actions.js';
import { fakeIo } from '../../helpers/fake-io.js';

const script = completionScript(buildProgram({ io: fakeIo().io }).program, 'powershell');

describe('members completion powershell', () => {
  it('registers one native completer for members', () => {
    expect(script).toContain('Register-ArgumentCompleter -Native -CommandName members -ScriptBlock {');
    expect(script.trimEnd().endsWith('}')).toBe(true);
  });

  it('holds the command tree, each command\'s options, fixed values and the helpers (profiles, undo ids, product and course ids)', () => {
    expect(script).toContain("'students' = @('list', 'search', 'show', 'get', 'create', 'delete', 'products', 'grant', 'revoke', 'transfer', 'import', 'help')");
    expect(script).toContain("'students grant' = @('--accession', '--expiration', '--renew', '--include-status-changes', '--reason', '--file'");
    expect(script).toContain("'|--output' = @('table', 'json', 'ndjson', 'csv', 'xlsx')");
    expect(script).toContain("'subscriptions list|--access' = @('active', 'inactive')");
    expect(script).toContain("'|--profile' = '__complete-profiles'");
    expect(script).toContain("'undo|0' = '__complete-undo'");
    // Arguments by position: the product is the second argument of grant.
    // Every product after the student; nothing for the student itself.
    expect(script).toContain("'students grant|0' = @()");
    expect(script).toContain("'students grant|*' = '__complete-products'");
    expect(script).toContain("'courses accesses|0' = '__complete-courses'");
    expect(script).toContain("'subscriptions list|--product' = '__complete-products'");
    // The helper gets the line (for its -p); the title goes beside the id, the id alone is inserted.
    expect(script).toContain('$candidates = @(& members $candidates $commandAst.ToString() 2>$null)');
    expect(script).toContain("[System.Management.Automation.CompletionResult]::new($value, $shown, 'ParameterValue', $shown)");
  });

  it('balances its braces and quotes (a script PowerShell would parse)', () => {
    const code = script.split('\n').filter((line) => !line.trimStart().startsWith('#')).join('\n');
    const strip = code.replace(/'(?:[^']|'')*'/g, "''").replace(/"[^"]*"/g, '""');
    expect((strip.match(/{/g) ?? []).length).toBe((strip.match(/}/g) ?? []).length);
    expect((strip.match(/\(/g) ?? []).length).toBe((strip.match(/\)/g) ?? []).length);
  });
});
