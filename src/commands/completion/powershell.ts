/**
 * The PowerShell script: one native argument completer holding the command
 * tree as hash tables (commands, options, fixed values), walked at each Tab.
 * Profile names and undo ids come from `members __complete-profiles` and `__complete-undo`, as in the others.
 */
import { allCommands, checkWord, flagsOf, type CompletionSpec, type OptionSpec, type ValueSource } from './spec.js';

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const list = (words: readonly string[]) => `@(${words.map(quote).join(', ')})`;

function values(source: ValueSource | undefined): string | undefined {
  if (!source) return undefined;
  switch (source.kind) {
    case 'words': return list(source.words.map(checkWord));
    case 'helper': return quote(`__complete-${checkWord(source.helper)}`);
    case 'files': return `'files'`;
  }
}

export function powershellScript(spec: CompletionSpec): string {
  const commands = allCommands(spec);
  const key = (path: readonly string[]) => quote(path.join(' '));
  const tree = commands.filter((command) => command.commands.length > 0)
    .map((command) => `    ${key(command.path)} = ${list(command.commands.flatMap((sub) => [sub.name, ...sub.aliases].map(checkWord)))}`);
  const aliases = commands.flatMap((command) => command.aliases.map((alias) => `    ${key([...command.path.slice(0, -1), alias])} = ${quote(command.name)}`));
  const optionNames = (options: readonly OptionSpec[]) => options.flatMap(flagsOf).map(checkWord);
  const options = commands.map((command) => `    ${key(command.path)} = ${list(optionNames(command.options))}`);
  const valued = (path: readonly string[], options: readonly OptionSpec[]) => options.flatMap((option) => {
    const source = option.value ? values(option.value.source) ?? '@()' : undefined;
    return source === undefined ? [] : flagsOf(option).map((flag) => `    ${quote(`${path.join(' ')}|${checkWord(flag)}`)} = ${source}`);
  });
  const optionValues = [
    ...valued([], spec.globals),
    ...commands.flatMap((command) => valued(command.path, [...(command.fields ? [command.fields] : []), ...command.options])),
  ];
  const argumentValues = commands.flatMap((command) => {
    const source = values(command.args[0]?.source);
    return source === undefined ? [] : [`    ${key(command.path)} = ${source}`];
  });
  const bin = checkWord(spec.bin);
  return [
    `# PowerShell completion for ${bin}: add \`${bin} completion powershell | Out-String | Invoke-Expression\` to $PROFILE`,
    `Register-ArgumentCompleter -Native -CommandName ${bin} -ScriptBlock {`,
    '  param($wordToComplete, $commandAst, $cursorPosition)',
    '  $commands = @{',
    ...tree,
    '  }',
    '  $aliases = @{',
    ...aliases,
    '  }',
    '  $options = @{',
    ...options,
    '  }',
    `  $globals = ${list(optionNames(spec.globals))}`,
    '  $optionValues = @{',
    ...optionValues,
    '  }',
    '  $argumentValues = @{',
    ...argumentValues,
    '  }',
    '  $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })',
    '  if ($wordToComplete -ne \'\' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }',
    '  $path = @()',
    '  foreach ($word in $words) {',
    '    $here = $path -join \' \'',
    '    if ($commands.ContainsKey($here) -and $commands[$here] -contains $word) {',
    '      $name = $aliases[(@($path + $word) -join \' \')]',
    '      $path += $(if ($name) { $name } else { $word })',
    '    }',
    '  }',
    '  $here = $path -join \' \'',
    '  $previous = $(if ($words.Count -gt 0) { $words[-1] } else { \'\' })',
    '  $candidates = $null',
    '  foreach ($scope in @($here, \'\')) {',
    '    if ($null -eq $candidates -and $optionValues.ContainsKey("$scope|$previous")) { $candidates = $optionValues["$scope|$previous"] }',
    '  }',
    '  if ($null -eq $candidates) {',
    '    if ($wordToComplete.StartsWith(\'-\')) { $candidates = @($options[$here]) + $globals }',
    '    elseif ($commands.ContainsKey($here)) { $candidates = $commands[$here] }',
    '    elseif ($argumentValues.ContainsKey($here)) { $candidates = $argumentValues[$here] }',
    '    else { $candidates = @() }',
    '  }',
    `  if ($candidates -is [string] -and $candidates.StartsWith('__complete-')) { $candidates = @(& ${bin} $candidates 2>$null | ForEach-Object { ($_ -split "\`t")[0] }) }`,
    '  if ($candidates -eq \'files\') { return }',
    '  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {',
    '    [System.Management.Automation.CompletionResult]::new($_, $_, \'ParameterValue\', $_)',
    '  }',
    '}',
    '',
  ].join('\n');
}
