/**
 * The fish script: `complete` lines whose conditions ask where on the command
 * tree the line being completed stands.
 */
import {
  allCommands, checkWord, flagsOf,
  type CommandSpec, type CompletionSpec, type OptionSpec, type ValueSource,
} from './spec.js';

export function fishScript(spec: CompletionSpec): string {
  const fn = `__${spec.bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const commands = allCommands(spec);
  const key = (command: CommandSpec, word: string) => quote(`${command.path.join(' ')}|${word}`);
  const complete = `complete -c ${spec.bin}`;
  const at = (command: CommandSpec) => quote(`${fn}_at ${quote(command.path.join(' '))}`);

  const subcommandCases = commands.flatMap((command) => command.commands.flatMap((sub) => [
    `        case ${[sub.name, ...sub.aliases].map((name) => key(command, name)).join(' ')}`,
    `            echo ${checkWord(sub.name)}`,
  ]));
  const valuePatterns = [
    ...commands.flatMap((command) => command.options.filter((o) => o.value).flatMap(flagsOf).map((flag) => key(command, flag))),
    ...spec.globals.filter((o) => o.value).flatMap(flagsOf).map((flag) => quote(`*|${flag}`)),
  ];

  const optionLine = (option: OptionSpec, condition?: string) => {
    const parts = [complete];
    if (condition) parts.push('-n', condition);
    for (const flag of flagsOf(option).map(checkWord)) {
      if (flag.startsWith('--')) parts.push('-l', flag.slice(2));
      else if (flag.length === 2) parts.push('-s', flag.slice(1));
      else parts.push('-o', flag.slice(1));
    }
    if (option.value) parts.push(...valueArgs(fn, option.value.source));
    parts.push('-d', quote(option.description));
    return parts.join(' ');
  };

  const treeLines = commands.flatMap((command) => [
    ...command.commands.map((sub) =>
      `${complete} -n ${quote(`${fn}_arg ${quote(command.path.join(' '))} 0`)} -a ${checkWord(sub.name)} -d ${quote(sub.description)}`),
    ...[...(command.fields ? [command.fields] : []), ...command.options].map((option) => optionLine(option, at(command))),
    ...command.args.flatMap((arg, index) => {
      if (!arg.source) return [];
      const condition = quote(`${fn}_arg ${quote(command.path.join(' '))} ${index}${arg.variadic ? ' +' : ''}`);
      return [`${complete} -n ${condition} ${valueArgs(fn, arg.source).join(' ')}`];
    }),
  ]);

  return [
    `# fish completion for ${spec.bin}`,
    '#',
    `# Generated from the command tree by \`${spec.bin} completion fish\`; do not edit.`,
    '# Regenerate with `npm run completions`. Install: see docs/completion.md.',
    '',
    `# ${fn}_subcommand PATH WORD: the name of the subcommand WORD (a name or an alias) of PATH.`,
    `function ${fn}_subcommand --argument-names path word`,
    '    switch "$path|$word"',
    ...subcommandCases,
    '        case \'*\'',
    '            return 1',
    '    end',
    'end',
    '',
    `# ${fn}_takes_value PATH FLAG: whether FLAG takes a value (the next word) in PATH.`,
    `function ${fn}_takes_value --argument-names path flag`,
    '    switch "$path|$flag"',
    ...(valuePatterns.length ? [`        case ${valuePatterns.join(' ')}`, '            return 0'] : []),
    '    end',
    '    return 1',
    'end',
    '',
    '# Prints the command path of the line being completed, then how many',
    '# positional arguments follow it.',
    `function ${fn}_state`,
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    set -l path ''",
    '    set -l nargs 0',
    '    set -l skip 0',
    '    set -l rest 0',
    '    set -l sub',
    '    for word in $words',
    '        if test $skip -eq 1',
    '            set skip 0',
    "        else if test $rest -eq 0; and string match -q -- '-*' $word",
    '            if test "$word" = --',
    '                set rest 1',
    `            else if ${fn}_takes_value "$path" $word`,
    '                set skip 1',
    "            else if string match -qr -- '^-[^-].' $word",
    '                # Stacked short flags (-qo): the first letter that takes a value takes the rest, or the next word.',
    '                set -l letters (string split \'\' -- (string sub -s 2 -- $word))',
    '                for j in (seq (count $letters))',
    `                    if ${fn}_takes_value "$path" -$letters[$j]`,
    '                        test $j -eq (count $letters); and set skip 1',
    '                        break',
    '                    end',
    '                end',
    '            end',
    `        else if test $nargs -eq 0; and set sub (${fn}_subcommand "$path" $word)`,
    '            if test -z "$path"',
    '                set path $sub',
    '            else',
    '                set path "$path $sub"',
    '            end',
    '        else',
    '            set nargs (math $nargs + 1)',
    '        end',
    '    end',
    '    printf \'%s\\n\' "$path" $nargs',
    'end',
    '',
    `# ${fn}_at PATH: the line is at the command PATH.`,
    `function ${fn}_at --argument-names path`,
    `    set -l state (${fn}_state)`,
    '    test "$state[1]" = "$path"',
    'end',
    '',
    `# ${fn}_arg PATH INDEX [+]: the word being completed is positional argument INDEX of PATH (or later, with +).`,
    `function ${fn}_arg --argument-names path index more`,
    `    set -l state (${fn}_state)`,
    '    test "$state[1]" = "$path"; or return 1',
    '    test "$state[2]" -eq $index; or begin; test "$more" = +; and test "$state[2]" -gt $index; end',
    'end',
    '',
    '# A comma-separated list: completes the item after the last comma, skipping items already given.',
    `function ${fn}_list`,
    "    set -l prefix (string match -r -- '^.*,' (commandline -ct)); or set prefix ''",
    '    for word in $argv',
    '        contains -- $word (string split , -- $prefix); or echo $prefix$word',
    '    end',
    'end',
    '',
    `# ${fn}_helper NAME: values only this machine knows (profile names, undo ids, product and course ids), with their`,
    `# descriptions after a TAB, from \`${spec.bin} __complete-NAME LINE\` (LINE up to the cursor, for its -p; never tokens;`,
    '# nothing on any error).',
    `function ${fn}_helper`,
    `    command ${spec.bin} __complete-$argv[1] (commandline -cp) 2>/dev/null`,
    'end',
    '',
    '# No file names unless an option or argument takes a file.',
    `${complete} -f`,
    '',
    '# Global options',
    ...spec.globals.map((option) => optionLine(option)),
    '',
    '# Commands, their options and arguments',
    ...treeLines,
    '',
  ].join('\n');
}

function valueArgs(fn: string, source: ValueSource | undefined): string[] {
  if (!source) return ['-x'];
  switch (source.kind) {
    case 'files': return ['-r', '-F'];
    case 'helper': {
      const helper = `${fn}_helper ${checkWord(source.helper)}`;
      return ['-x', '-a', quote(source.commaList ? `(${fn}_list (${helper} | string replace -r '\\t.*' ''))` : `(${helper})`)];
    }
    case 'words': {
      const words = source.words.map(checkWord).join(' ');
      return ['-x', '-a', quote(source.commaList ? `(${fn}_list ${words})` : words)];
    }
  }
}

/** A fish single-quoted string. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
