/**
 * The bash script: plain bash (no bash-completion helpers needed), one `case`
 * per question the completion function asks of the command tree.
 */
import {
  allCommands, checkWord, flagsOf,
  type CommandSpec, type CompletionSpec, type OptionSpec, type ValueSource,
} from './spec.js';

export function bashScript(spec: CompletionSpec): string {
  const fn = `__${identifier(spec.bin)}`;
  const commands = allCommands(spec);
  const key = (command: CommandSpec, word: string) => quote(`${command.path.join(' ')}|${word}`);
  const anyPath = (word: string) => `*${quote(`|${word}`)}`;
  const globalFlags = spec.globals.flatMap(flagsOf);

  const subcommandCases = commands.flatMap((command) => command.commands.flatMap((sub) =>
    [`${[sub.name, ...sub.aliases].map((name) => key(command, name)).join('|')}) echo ${sub.name} ;;`]));

  const takesValue = (options: OptionSpec[], pattern: (flag: string) => string) =>
    options.filter((option) => option.value).flatMap(flagsOf).map(pattern);
  const valueFlagPatterns = [
    ...commands.flatMap((command) => takesValue(command.options, (flag) => key(command, flag))),
    ...takesValue(spec.globals, anyPath),
  ];

  const commandCases = commands.filter((command) => command.commands.length > 0)
    .map((command) => `${quote(command.path.join(' '))}) echo ${quote(command.commands.map((sub) => checkWord(sub.name)).join(' '))} ;;`);

  const flagCases = commands.map((command) => {
    const own = command.options.flatMap(flagsOf).map(checkWord).join(' ');
    return `${quote(command.path.join(' '))}) echo ${quote(own)} ;;`;
  });

  const valueCases = [
    // A command's own field names for the global --fields come before the global cases.
    ...commands.flatMap((command) => [...(command.fields ? [command.fields] : []), ...command.options].flatMap((option) => {
      const action = option.value?.source && valueAction(fn, option.value.source);
      return action ? [`${flagsOf(option).map((flag) => key(command, flag)).join('|')}) ${action} ;;`] : [];
    })),
    ...spec.globals.flatMap((option) => {
      const action = option.value?.source && valueAction(fn, option.value.source);
      return action ? [`${flagsOf(option).map(anyPath).join('|')}) ${action} ;;`] : [];
    }),
  ];

  const argumentCases = commands.flatMap((command) => command.args.flatMap((arg, index) => {
    const action = arg.source && valueAction(fn, arg.source);
    if (!action) return [];
    const path = command.path.join(' ');
    return arg.variadic
      ? [`${quote(`${path}|`)}*) (( $2 >= ${index} )) && ${action} ;;`]
      : [`${quote(`${path}|${index}`)}) ${action} ;;`];
  }));

  const caseBlock = (subject: string, cases: string[], fallback?: string) => [
    `  case ${subject} in`,
    ...cases.map((line) => `    ${line}`),
    ...(fallback ? [`    *) ${fallback} ;;`] : []),
    '  esac',
  ];

  return [
    `# bash completion for ${spec.bin}                                -*- shell-script -*-`,
    '#',
    `# Generated from the command tree by \`${spec.bin} completion bash\`; do not edit.`,
    '# Regenerate with `npm run completions`. Install: see docs/completion.md.',
    '',
    `# ${fn}_subcommand PATH WORD: the name of the subcommand WORD (a name or an alias) of PATH.`,
    `${fn}_subcommand() {`,
    ...caseBlock('"$1|$2"', subcommandCases, 'return 1'),
    '}',
    '',
    `# ${fn}_takes_value PATH FLAG: whether FLAG takes a value (the next word) in PATH.`,
    `${fn}_takes_value() {`,
    ...caseBlock('"$1|$2"', valueFlagPatterns.length ? [`${valueFlagPatterns.join('|')}) return 0 ;;`] : []),
    '  return 1',
    '}',
    '',
    `# ${fn}_commands PATH: the subcommands of PATH.`,
    `${fn}_commands() {`,
    ...caseBlock('"$1"', commandCases),
    '}',
    '',
    `# ${fn}_flags PATH: the options of PATH, then the global ones.`,
    `${fn}_flags() {`,
    ...caseBlock('"$1"', flagCases),
    `  echo ${quote(globalFlags.map(checkWord).join(' '))}`,
    '}',
    '',
    `# ${fn}_values PATH FLAG: completes the value of FLAG.`,
    `${fn}_values() {`,
    ...caseBlock('"$1|$2"', valueCases),
    '}',
    '',
    `# ${fn}_argument PATH INDEX: completes the positional argument INDEX (from 0) of PATH.`,
    `${fn}_argument() {`,
    ...caseBlock('"$1|$2"', argumentCases),
    '}',
    '',
    '# Plain reads, not mapfile: bash 3.2 (macOS) has no mapfile.',
    `${fn}_words() {`,
    '  local word',
    '  while IFS= read -r word; do COMPREPLY+=("$word"); done < <(IFS=$\' \\t\\n\'; compgen -W "$1" -- "$cur")',
    '}',
    '',
    '# A comma-separated list: completes the item after the last comma, skipping items already given.',
    `${fn}_list() {`,
    '  local prefix="" word',
    '  [[ $cur == *,* ]] && prefix="${cur%,*},"',
    '  # No space after an item: the list may go on with a comma.',
    '  compopt -o nospace 2>/dev/null',
    '  for word in $1; do',
    '    [[ ",$prefix" == *",$word,"* ]] && continue',
    '    [[ "$prefix$word" == "$cur"* ]] && COMPREPLY+=("$prefix$word")',
    '  done',
    '}',
    '',
    `# ${fn}_names NAME: the values alone of \`${spec.bin} __complete-NAME LINE\`, for a comma list (profile names).`,
    `${fn}_names() {`,
    '  local line',
    `  while IFS= read -r line; do [[ -n $line ]] && printf '%s ' "\${line%%$'\\t'*}"; done < <(command ${spec.bin} "__complete-$1" "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null)`,
    '}',
    '',
    `${fn}_files() {`,
    '  compopt -o filenames 2>/dev/null',
    '  local file',
    '  while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$cur")',
    '}',
    '',
    `# ${fn}_helper NAME: values only this machine knows (profile names, undo ids, product and course ids), from`,
    `# \`${spec.bin} __complete-NAME LINE\` (LINE up to the cursor, for its -p; never tokens; nothing on any error).`,
    '# A line may end with a TAB and a description (a product\'s title, what an undo id changed): when bash lists',
    '# several candidates (COMP_TYPE ? ! @) each is shown beside its value, as zsh and fish do, one a line; a Tab',
    '# or menu completion inserts the value alone. A product or course may be named by the start of its title too:',
    '# where no id begins with the word, the titles that do (case ignored) are offered, quoted, the id beside each.',
    `${fn}_helper() {`,
    '  local line value typed nocase q="\'"',
    '  local -a values=() lines=() all=()',
    '  local -i width=0 k',
    `  while IFS= read -r line; do [[ -n $line ]] && all+=("$line"); done < <(command ${spec.bin} "__complete-$1" "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null)`,
    '  for line in "${all[@]}"; do',
    "    value=${line%%$'\\t'*}",
    '    [[ -n $value && $value == "$cur"* ]] || continue',
    '    values+=("$value")',
    '    lines+=("$line")',
    '    (( ${#value} > width )) && width=${#value}',
    '  done',
    '  if (( ${#values[@]} == 0 )) && [[ -n $cur && ( $1 == products || $1 == courses ) ]]; then',
    '    # An opening quote typed is readline\'s to keep: the title then goes without its own.',
    '    typed=${cur#[\\"\\\']}',
    '    nocase=$(shopt -p nocasematch)',
    '    shopt -s nocasematch',
    '    for line in "${all[@]}"; do',
    "      [[ $line == *$'\\t'* && ${line#*$'\\t'} == \"$typed\"* ]] || continue",
    "      value=${line#*$'\\t'}",
    "      [[ $typed == \"$cur\" ]] && value=$q${value//$q/$q\\\\$q$q}$q",
    '      values+=("$value")',
    "      lines+=(\"$value\"$'\\t'\"${line%%$'\\t'*}\")",
    '      (( ${#value} > width )) && width=${#value}',
    '    done',
    '    $nocase',
    '  fi',
    '  case ${#values[@]}:${COMP_TYPE-} in',
    '    0:*) return ;;',
    '    1:*|*:9|*:37|*:) COMPREPLY+=("${values[@]}"); return ;;',
    '  esac',
    '  for (( k = 0; k < ${#values[@]}; k++ )); do',
    '    line=${values[k]}',
    `    [[ \${lines[k]} == *$'\\t'* ]] && printf -v line '%-*s  -- %s' "$width" "$line" "\${lines[k]#*$'\\t'}"`,
    '    # Cut to the screen, and at least half as wide: readline then shows one a line.',
    `    (( \${COLUMNS:-0} > width + 8 )) && line=\${line:0:COLUMNS-1} && printf -v line '%-*s' $(( COLUMNS / 2 )) "$line"`,
    '    COMPREPLY+=("$line")',
    '  done',
    '}',
    '',
    `# ${fn}_stacked PATH WORD: stacked short flags (-qo): the first letter that takes a value takes the rest of`,
    '# the word as its value, or, last in the word, the next word; then it stands for that flag alone (-o).',
    `${fn}_stacked() {`,
    '  local -i j',
    '  for (( j = 1; j < ${#2}; j++ )); do',
    `    if ${fn}_takes_value "$1" "-\${2:j:1}"; then`,
    '      (( j == ${#2} - 1 )) && { printf \'%s\' "-${2:j:1}"; return; }',
    '      break',
    '    fi',
    '  done',
    '  printf \'%s\' "$2"',
    '}',
    '',
    `# ${fn}_line: WORDS, CWORD (the index of the word under the cursor) and CUR (that word up to the cursor), as the`,
    '# shell will split the line to run it. bash also splits COMP_WORDS at the characters of COMP_WORDBREAKS (`@`,',
    '# `:`, `=`; bash-completion takes `@` out), which would make `ana@example.com` three words and',
    '# `--base-url=http://h:8080` seven: the pieces no blank separates in COMP_LINE are one word again.',
    `${fn}_line() {`,
    '  local piece',
    '  local -i pos=0 gap',
    '  words=() starts=() cword=-1 cur=""',
    '  for piece in "${COMP_WORDS[@]}"; do',
    '    # The empty word bash adds for a cursor on a blank is found below, from COMP_POINT.',
    '    [[ -n $piece ]] || continue',
    '    gap=0',
    '    while [[ ${COMP_LINE:pos:1} == [[:space:]] ]]; do pos+=1; gap=1; done',
    '    if [[ ${COMP_LINE:pos:${#piece}} != "$piece" ]]; then',
    '      # A line some other completion rewrote: its words as they are.',
    '      words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]-}',
    '      return',
    '    fi',
    '    if (( gap || ${#words[@]} == 0 )); then',
    '      (( cword < 0 && COMP_POINT < pos )) && cword=${#words[@]}',
    '      words+=("$piece")',
    '      starts+=("$pos")',
    '    else',
    '      words[${#words[@]}-1]+=$piece',
    '    fi',
    '    pos+=${#piece}',
    '    if (( cword < 0 && COMP_POINT <= pos )); then',
    '      cword=${#words[@]}-1',
    '      cur=${COMP_LINE:starts[cword]:COMP_POINT-starts[cword]}',
    '    fi',
    '  done',
    '  (( cword < 0 )) && cword=${#words[@]}',
    '  return 0',
    '}',
    '',
    `# ${fn}_trim: readline replaces only what follows the last word-break character before the cursor (outside`,
    '# quotes, unescaped): the candidates, written for the whole word (LEAD, as in `--opt=`, then CUR), lose what',
    "# comes before it, as bash-completion's __ltrim_colon_completions does for `:`.",
    `${fn}_trim() {`,
    '  local typed="$lead$cur" quote="" char',
    '  local -i k n=0',
    '  for (( k = 0; k < ${#typed}; k++ )); do',
    '    char=${typed:k:1}',
    `    if [[ $char == '\\' && $quote != "'" ]]; then`,
    '      k+=1',
    '    elif [[ -n $quote ]]; then',
    '      [[ $char == "$quote" ]] && quote=""',
    `    elif [[ $char == [\\"\\'] ]]; then`,
    '      quote=$char',
    '    elif [[ $char != [[:space:]] && $COMP_WORDBREAKS == *"$char"* ]]; then',
    '      n=k+1',
    '    fi',
    '  done',
    '  for k in "${!COMPREPLY[@]}"; do',
    '    COMPREPLY[k]=$lead${COMPREPLY[k]}',
    '    COMPREPLY[k]=${COMPREPLY[k]#"${typed:0:n}"}',
    '  done',
    '}',
    '',
    `_${identifier(spec.bin)}() {`,
    '  local cur lead="" path="" option="" word sub',
    '  local -a words starts',
    '  local -i cword i=1 nargs=0 rest=0',
    '  COMPREPLY=()',
    `  ${fn}_line`,
    '  # Walk the words before the cursor: subcommands extend the path, options',
    '  # skip their values (`--opt value`; `--opt=value` carries its own).',
    '  while (( i < cword )); do',
    '    word="${words[i]}"',
    '    if (( rest == 0 )) && [[ $word == -* ]]; then',
    `      [[ $word == -[!-]?* ]] && word="$(${fn}_stacked "$path" "$word")"`,
    '      if [[ $word == -- ]]; then',
    '        rest=1',
    `      elif [[ $word != *=* ]] && ${fn}_takes_value "$path" "$word"; then`,
    '        if (( i + 1 == cword )); then',
    '          option="$word"',
    '          break',
    '        fi',
    '        i+=1',
    '      fi',
    `    elif (( nargs == 0 )) && sub="$(${fn}_subcommand "$path" "$word")"; then`,
    '      path="${path:+$path }$sub"',
    '    else',
    '      nargs+=1',
    '    fi',
    '    i+=1',
    '  done',
    `  if [[ -z $option && $cur == --*=* ]] && (( rest == 0 )) && ${fn}_takes_value "$path" "\${cur%%=*}"; then`,
    '    option=${cur%%=*}',
    '    lead="$option="',
    '    cur=${cur#*=}',
    '  fi',
    '',
    '  if [[ -n $option ]]; then',
    `    ${fn}_values "$path" "$option"`,
    '  elif (( rest == 0 )) && [[ $cur == -* ]]; then',
    `    ${fn}_words "$(${fn}_flags "$path")"`,
    `  elif (( nargs == 0 )) && [[ -n "$(${fn}_commands "$path")" ]]; then`,
    `    ${fn}_words "$(${fn}_commands "$path")"`,
    '  else',
    `    ${fn}_argument "$path" "$nargs"`,
    '  fi',
    `  ${fn}_trim`,
    '  return 0',
    '}',
    '',
    `complete -F _${identifier(spec.bin)} ${spec.bin}`,
    '',
  ].join('\n');
}

function valueAction(fn: string, source: ValueSource): string {
  switch (source.kind) {
    case 'helper': return source.commaList ? `${fn}_list "$(${fn}_names ${checkWord(source.helper)})"` : `${fn}_helper ${checkWord(source.helper)}`;
    case 'files': return `${fn}_files`;
    case 'words': return `${fn}_${source.commaList ? 'list' : 'words'} ${quote(source.words.map(checkWord).join(' '))}`;
  }
}

/** Double-quoted bash word; the tree's words are plain (checkWord), so only these need escaping. */
function quote(text: string): string {
  return `"${text.replace(/[\\"$`]/g, '\\$&')}"`;
}

function identifier(bin: string): string {
  return bin.replace(/[^A-Za-z0-9_]/g, '_');
}
