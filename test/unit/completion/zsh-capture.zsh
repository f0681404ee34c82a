#!/usr/bin/env zsh
# Prints the candidates zsh's completion system offers for a command line:
# zsh-capture.zsh SCRIPT LINE. It runs an interactive zsh in a pseudo-terminal
# (zpty), loads SCRIPT with compinit, types LINE and Tab, and records every
# match passed to compadd, one per line.
zmodload zsh/zpty || { print -u2 'error: zsh/zpty is missing'; exit 1 }
script=$1 line=$2
init=$(mktemp) && trap 'rm -f $init' EXIT
cat > $init <<INIT
PROMPT=
unsetopt zle_bracketed_paste 2>/dev/null
autoload -U compinit && compinit -u -D
source ${(q)script}
bindkey '^I' complete-word
null-line() { print -rn -- \$'\\0\\n' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd() {
  # Calls that only fill arrays (-O -A -D) are bookkeeping, not matches.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "\$@"; return \$?
  fi
  local -a __hits
  builtin compadd -A __hits "\$@"
  local hit
  for hit in \$__hits; do print -r -- "\$IPREFIX\$hit"; done
}
print ok
INIT
zpty z zsh -f -i
zpty -w z "source ${(q)init}"
local out
repeat 20; do
  zpty -r z out || break
  [[ $out == ok* ]] && break
done
zpty -w z "$line"$'\t'
integer seen=0
while zpty -r z out; do
  for part in ${(f)out}; do
    part=${part%$'\r'}
    if [[ $part == *$'\0'* ]]; then
      (( seen++ )) && exit 0
      continue
    fi
    (( seen )) && print -r -- $part
  done
done
exit 2
