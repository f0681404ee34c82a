/**
 * The PowerShell script: one native argument completer holding the command
 * tree as hash tables (commands, options, fixed values), walked at each Tab.
 * Profile names, undo ids and product and course ids come from `members __complete-NAME LINE`, as in the others.
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
  // By position after the command (`path|1`); a variadic argument takes every position from its own (`path|*`), so
  // the positions before it get an entry of their own, empty when they complete nothing.
  const argumentValues = commands.flatMap((command) => command.args.flatMap((arg, index) => {
    const source = values(arg.source) ?? (command.args.slice(index + 1).some((later) => later.variadic && later.source) ? '@()' : undefined);
    return source === undefined ? [] : [`    ${quote(`${command.path.join(' ')}|${arg.variadic ? '*' : index}`)} = ${source}`];
  }));
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
    "  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }",
    '  # Walk the words: subcommands extend the path, an option that takes a value skips it (stacked short',
    '  # flags as commander reads them: the first letter that takes a value takes the rest, or the next word).',
    '  $path = @()',
    '  $nargs = 0',
    '  $pending = $null',
    '  $rest = $false',
    '  foreach ($word in $words) {',
    "    $here = $path -join ' '",
    '    if ($null -ne $pending) { $pending = $null; continue }',
    "    if (-not $rest -and $word -eq '--') { $rest = $true; continue }",
    "    if (-not $rest -and $word.StartsWith('-')) {",
    "      if ($word.Contains('=')) { continue }",
    "      $flags = $(if ($word -match '^-[^-].') { @($word.Substring(1).ToCharArray() | ForEach-Object { \"-$_\" }) } else { @($word) })",
    '      for ($j = 0; $j -lt $flags.Count; $j++) {',
    '        if ($optionValues.ContainsKey("$here|$($flags[$j])") -or $optionValues.ContainsKey("|$($flags[$j])")) {',
    '          if ($j -eq $flags.Count - 1) { $pending = $flags[$j] }',
    '          break',
    '        }',
    '      }',
    '      continue',
    '    }',
    '    if ($nargs -eq 0 -and $commands.ContainsKey($here) -and $commands[$here] -contains $word) {',
    "      $name = $aliases[(@($path + $word) -join ' ')]",
    '      $path += $(if ($name) { $name } else { $word })',
    '    } else {',
    '      $nargs++',
    '    }',
    '  }',
    "  $here = $path -join ' '",
    '  $candidates = @()',
    '  if ($null -ne $pending) {',
    '    if ($optionValues.ContainsKey("$here|$pending")) { $candidates = $optionValues["$here|$pending"] }',
    '    elseif ($optionValues.ContainsKey("|$pending")) { $candidates = $optionValues["|$pending"] }',
    '  }',
    "  elseif (-not $rest -and $wordToComplete.StartsWith('-')) { $candidates = @($options[$here]) + $globals }",
    '  elseif ($nargs -eq 0 -and $commands.ContainsKey($here)) { $candidates = $commands[$here] }',
    '  elseif ($argumentValues.ContainsKey("$here|$nargs")) { $candidates = $argumentValues["$here|$nargs"] }',
    '  elseif ($argumentValues.ContainsKey("$here|*")) { $candidates = $argumentValues["$here|*"] }',
    "  if ($candidates -is [string] -and $candidates -eq 'files') { return }",
    '  # Values only this machine knows, as `value<TAB>description` lines; the line goes along for its -p.',
    `  if ($candidates -is [string]) { $candidates = @(& ${bin} $candidates $commandAst.ToString() 2>$null) }`,
    '  $candidates | ForEach-Object {',
    '    $value, $description = "$_" -split "`t", 2',
    '    if ($value -like "$wordToComplete*") {',
    '      $shown = $(if ($description) { "$value  $description" } else { $value })',
    "      [System.Management.Automation.CompletionResult]::new($value, $shown, 'ParameterValue', $shown)",
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
