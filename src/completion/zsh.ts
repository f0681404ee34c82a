/**
 * The zsh script: one `_arguments` function per command, as zsh's own
 * completions are written, so options and subcommands show descriptions.
 */
import {
  allCommands, checkWord, flagsOf,
  type ArgumentSpec, type CommandSpec, type CompletionSpec, type OptionSpec, type ValueSource,
} from './spec.js';

export function zshScript(spec: CompletionSpec): string {
  const bin = identifier(spec.bin);
  const fnName = (command: CommandSpec) => [`_${bin}_cmd`, ...command.path.map(identifier)].join('__');
  const globals = `__${bin}_globals`;

  const functions = allCommands(spec).flatMap((command) => {
    // A command that declares its records completes --fields with their names, in place of the global one.
    const specs = command.fields
      ? [`\${${globals}:#--fields=*}`, quoteOption(command.fields, bin), ...command.options.map((option) => quoteOption(option, bin))]
      : [`$${globals}`, ...command.options.map((option) => quoteOption(option, bin))];
    if (command.commands.length > 0) {
      const list = `${fnName(command)}_commands`;
      return [
        `${fnName(command)}() {`,
        '  local curcontext="$curcontext" state state_descr line',
        '  local -A opt_args',
        // -A '-*': once the subcommand is named, options belong to it: a global flag typed after the
        // subcommand's name must not end the group's parsing and hide the subcommand's own options.
        "  _arguments -s -S -C -A '-*' \\",
        ...[...specs, `'1:command:${list}'`, `'*::argument:->argument'`].map((line) => `    ${line} \\`),
        '    && return',
        '  case $state in',
        '    (argument)',
        `      curcontext="\${curcontext%:*:*}:${[spec.bin, ...command.path].join('-')}-$words[1]:"`,
        '      case $words[1] in',
        ...command.commands.map((sub) => `        (${[sub.name, ...sub.aliases].map(checkWord).join('|')}) ${fnName(sub)} ;;`),
        '      esac',
        '      ;;',
        '  esac',
        '}',
        '',
        `${list}() {`,
        '  local -a commands',
        '  commands=(',
        ...command.commands.map((sub) => `    ${singleQuote(`${sub.name.replace(/:/g, '\\:')}:${sub.description}`)}`),
        '  )',
        `  _describe -t commands ${singleQuote([spec.bin, ...command.path, 'command'].join(' '))} commands`,
        '}',
        '',
      ];
    }
    const args = command.args.map((arg) => quoteArgument(arg, bin));
    const lines = [...specs, ...args];
    return [
      `${fnName(command)}() {`,
      ...(lines.length === 0
        ? ['  _arguments -s -S']
        : ['  _arguments -s -S \\', ...lines.map((line, i) => `    ${line}${i < lines.length - 1 ? ' \\' : ''}`)]),
      '}',
      '',
    ];
  });

  return [
    `#compdef ${spec.bin}`,
    `# zsh completion for ${spec.bin}`,
    '#',
    `# Generated from the command tree by \`${spec.bin} completion zsh\`; do not edit.`,
    '# Regenerate with `npm run completions`. Install: see docs/completion.md.',
    '',
    `# _${bin}_helper NAME: values only this machine knows (profile names, undo ids, product and course ids), with their`,
    `# descriptions, from \`${spec.bin} __complete-NAME LINE\` (LINE up to the cursor, for its -p; value TAB description`,
    '# per line; never tokens; nothing on any error).',
    // _arguments puts its description options (-J group -X …) before the action's own words: the name is the last one.
    `_${bin}_helper() {`,
    '  local name=${@[-1]}',
    '  local -a lines values shown',
    `  lines=(\${(f)"$(command ${spec.bin} __complete-$name "$LBUFFER" 2>/dev/null)"})`,
    "  values=(${lines%%$'\\t'*})",
    "  shown=(${lines/$'\\t'/  -- })",
    '  compadd "${@[1,-2]}" -l -d shown -a values',
    '}',
    '',
    ...functions,
    `_${bin}() {`,
    '  # The global options, valid before and after every command name.',
    `  local -a ${globals}`,
    `  ${globals}=(`,
    ...spec.globals.map((option) => `    ${quoteOption(option, bin)}`),
    '  )',
    `  _${bin}_cmd "$@"`,
    '}',
    '',
    `if [[ "\${funcstack[1]-}" == _${bin} ]]; then`,
    `  _${bin} "$@"`,
    'else',
    `  compdef _${bin} ${spec.bin}`,
    'fi',
    '',
  ].join('\n');
}

/** An `_arguments` option spec, e.g. '(-o --output)'{-o+,--output=}'[output format]:format:(table json)'. */
function quoteOption(option: OptionSpec, bin: string): string {
  const flags = flagsOf(option).map(checkWord);
  const names = flags.map((flag) => (option.value ? `${flag}${flag.startsWith('--') ? '=' : '+'}` : flag));
  const exclusion = option.terminal ? '(- *)' : option.repeatable ? '*' : flags.length > 1 ? `(${flags.join(' ')})` : '';
  const tail = `[${escapeDescription(option.description)}]${option.value ? `:${escapeMessage(option.value.name)}:${action(option.value.source, bin, option.value.name)}` : ''}`;
  return names.length > 1
    ? `${exclusion ? singleQuote(exclusion) : ''}{${names.join(',')}}${singleQuote(tail)}`
    : singleQuote(`${exclusion}${names[0] ?? ''}${tail}`);
}

function quoteArgument(arg: ArgumentSpec, bin: string): string {
  const position = arg.variadic ? '*:' : arg.required ? ':' : '::';
  return singleQuote(`${position}${escapeMessage(arg.name)}:${action(arg.source, bin, arg.name)}`);
}

function action(source: ValueSource | undefined, bin: string, name: string): string {
  if (!source) return ' ';
  switch (source.kind) {
    // _sequence completes the item after the last comma, with the helper's values, leaving out those already given.
    case 'helper': return source.commaList ? `_sequence -s , _${bin}_helper - ${checkWord(source.helper)}` : `_${bin}_helper ${checkWord(source.helper)}`;
    case 'files': return '_files';
    case 'words': {
      const words = source.words.map(checkWord);
      return source.commaList ? `_values -s , ${checkWord(name)} ${words.join(' ')}` : `(${words.join(' ')})`;
    }
  }
}

function escapeDescription(text: string): string {
  return text.replace(/[\\[\]:]/g, '\\$&');
}

function escapeMessage(text: string): string {
  return text.replace(/[\\:]/g, '\\$&');
}

function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}
