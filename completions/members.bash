# bash completion for members                                -*- shell-script -*-
#
# Generated from the command tree by `members completion bash`; do not edit.
# Regenerate with `npm run completions`. Install: see docs/completion.md.

# __members_subcommand PATH WORD: the name of the subcommand WORD (a name or an alias) of PATH.
__members_subcommand() {
  case "$1|$2" in
    "|students") echo students ;;
    "|scores") echo scores ;;
    "|magic-link") echo magic-link ;;
    "|products") echo products ;;
    "|subscriptions") echo subscriptions ;;
    "|courses") echo courses ;;
    "|report") echo report ;;
    "|auth") echo auth ;;
    "|api") echo api ;;
    "|sandbox") echo sandbox ;;
    "|completion") echo completion ;;
    "|history") echo history ;;
    "|undo") echo undo ;;
    "|version") echo version ;;
    "|sync") echo sync ;;
    "|mcp") echo mcp ;;
    "|each") echo each ;;
    "|record") echo record ;;
    "|lock") echo lock ;;
    "|help") echo help ;;
    "students|list") echo list ;;
    "students|search") echo search ;;
    "students|show") echo show ;;
    "students|get") echo get ;;
    "students|create") echo create ;;
    "students|delete") echo delete ;;
    "students|products") echo products ;;
    "students|grant") echo grant ;;
    "students|revoke") echo revoke ;;
    "students|transfer") echo transfer ;;
    "students|import") echo import ;;
    "students|help") echo help ;;
    "scores|get") echo get ;;
    "scores|set") echo set ;;
    "scores|add") echo add ;;
    "scores|help") echo help ;;
    "products|list") echo list ;;
    "products|get") echo get ;;
    "products|snapshot") echo snapshot ;;
    "products|help") echo help ;;
    "subscriptions|list") echo list ;;
    "subscriptions|extend") echo extend ;;
    "subscriptions|get") echo get ;;
    "subscriptions|help") echo help ;;
    "courses|list") echo list ;;
    "courses|get") echo get ;;
    "courses|accesses") echo accesses ;;
    "courses|help") echo help ;;
    "report|engaged-courses") echo engaged-courses ;;
    "report|help") echo help ;;
    "auth|login") echo login ;;
    "auth|status") echo status ;;
    "auth|switch") echo switch ;;
    "auth|logout") echo logout ;;
    "auth|token") echo token ;;
    "auth|help") echo help ;;
    "record|use") echo use ;;
    "record|status") echo status ;;
    "record|push") echo push ;;
    "record|help") echo help ;;
    "lock|list") echo list ;;
    "lock|break") echo break ;;
    "lock|help") echo help ;;
    *) return 1 ;;
  esac
}

# __members_takes_value PATH FLAG: whether FLAG takes a value (the next word) in PATH.
__members_takes_value() {
  case "$1|$2" in
    "students list|--page"|"students list|--per-page"|"students list|--limit"|"students search|--profiles"|"students show|--profiles"|"students get|--profiles"|"students create|--first-name"|"students create|--last-name"|"students create|--email"|"students create|--phone"|"students create|--birth"|"students create|--document"|"students create|--reference-id"|"students create|--reason"|"students delete|--reason"|"students grant|--accession"|"students grant|--expiration"|"students grant|--reason"|"students grant|--file"|"students grant|--concurrency"|"students grant|--wait"|"students grant|--strategy"|"students revoke|--reason"|"students revoke|--file"|"students revoke|--concurrency"|"students revoke|--wait"|"students revoke|--strategy"|"students transfer|--wait"|"students transfer|--reason"|"students import|--reason"|"students import|--concurrency"|"students import|--wait"|"students import|--strategy"|"scores set|--file"|"scores set|--wait"|"scores set|--reason"|"scores add|--file"|"scores add|--wait"|"scores add|--reason"|"magic-link|--expire-in"|"magic-link|--file"|"magic-link|--wait"|"magic-link|--reason"|"products list|--profiles"|"products list|--page"|"products list|--per-page"|"products list|--compare"|"subscriptions list|--profiles"|"subscriptions list|--page"|"subscriptions list|--per-page"|"subscriptions list|--status"|"subscriptions list|--access"|"subscriptions list|--product"|"subscriptions list|--student"|"subscriptions list|--expiring"|"subscriptions extend|--product"|"subscriptions extend|--days"|"subscriptions extend|--until"|"subscriptions extend|--student"|"subscriptions extend|--wait"|"subscriptions extend|--reason"|"courses list|--profiles"|"courses list|--page"|"courses list|--per-page"|"courses accesses|--profiles"|"courses accesses|--product"|"report engaged-courses|--profiles"|"report engaged-courses|--top"|"report engaged-courses|--limit"|"report engaged-courses|--cursor"|"report engaged-courses|--max-pages"|"report engaged-courses|--group-by"|"api|-X"|"api|--method"|"api|-f"|"api|--field"|"api|--input"|"sandbox|--host"|"sandbox|--port"|"sandbox|--seed"|"sandbox|--students"|"sandbox|--latency"|"sandbox|--fail-rate"|"sandbox|--rate-limit"|"sandbox|--flavor"|"sandbox|--paginator"|"sandbox|--per-page-ignored"|"sandbox|--per-page-max"|"sandbox|--server-tz"|"sandbox|--data"|"history|--student"|"history|--run"|"history|--since"|"history|--limit"|"history|--forget"|"history|--reason"|"undo|--student"|"undo|--reason"|"undo|--wait"|"sync|--file"|"sync|--product"|"sync|--max-revoke"|"sync|--plan-out"|"sync|--apply"|"sync|--concurrency"|"sync|--wait"|"sync|--reason"|"mcp|--max-rows"|"each|--first"|"each|--max-rows"|"each|--concurrency"|"each|--halt"|"each|--wait"|"lock break|--reason"|*"|-p"|*"|--profile"|*"|-o"|*"|--output"|*"|--fields"|*"|--csv-dialect"|*"|--base-url"|*"|--timeout"|*"|--retries"|*"|--out"|*"|--summary"|*"|--notify"|*"|--ping") return 0 ;;
  esac
  return 1
}

# __members_commands PATH: the subcommands of PATH.
__members_commands() {
  case "$1" in
    "") echo "students scores magic-link products subscriptions courses report auth api sandbox completion history undo version sync mcp each record lock help" ;;
    "students") echo "list search show get create delete products grant revoke transfer import help" ;;
    "scores") echo "get set add help" ;;
    "products") echo "list get snapshot help" ;;
    "subscriptions") echo "list extend get help" ;;
    "courses") echo "list get accesses help" ;;
    "report") echo "engaged-courses help" ;;
    "auth") echo "login status switch logout token help" ;;
    "record") echo "use status push help" ;;
    "lock") echo "list break help" ;;
  esac
}

# __members_flags PATH: the options of PATH, then the global ones.
__members_flags() {
  case "$1" in
    "") echo "-V --version -h --help" ;;
    "students") echo "-h --help" ;;
    "students list") echo "--with-subscriptions --page --per-page --all --limit -h --help" ;;
    "students search") echo "--profiles --all-profiles -h --help" ;;
    "students show") echo "--profiles --all-profiles -h --help" ;;
    "students get") echo "--profiles --all-profiles -h --help" ;;
    "students create") echo "--first-name --last-name --email --phone --birth --document --reference-id --reason -h --help" ;;
    "students delete") echo "--reason --forget -h --help" ;;
    "students products") echo "-h --help" ;;
    "students grant") echo "--accession --expiration --renew --include-status-changes --reason --file --concurrency --dry-run --skip-invalid --ignore-extra-columns --wait --strategy -h --help" ;;
    "students revoke") echo "--reason --file --concurrency --dry-run --skip-invalid --ignore-extra-columns --wait --strategy -h --help" ;;
    "students transfer") echo "--delete-source --include-status-changes --dry-run --wait --reason -h --help" ;;
    "students import") echo "--reason --concurrency --dry-run --skip-invalid --ignore-extra-columns --wait --strategy -h --help" ;;
    "students help") echo "" ;;
    "scores") echo "-h --help" ;;
    "scores get") echo "-h --help" ;;
    "scores set") echo "--file --wait --reason -h --help" ;;
    "scores add") echo "--file --wait --reason -h --help" ;;
    "scores help") echo "" ;;
    "magic-link") echo "--expire-in --file --wait --reason -h --help" ;;
    "products") echo "-h --help" ;;
    "products list") echo "--profiles --all-profiles --page --per-page --all --compare -h --help" ;;
    "products get") echo "-h --help" ;;
    "products snapshot") echo "-h --help" ;;
    "products help") echo "" ;;
    "subscriptions") echo "-h --help" ;;
    "subscriptions list") echo "--profiles --all-profiles --page --per-page --all --status --access --product --student --expiring --expired -h --help" ;;
    "subscriptions extend") echo "--product --days --until --student --include-status-changes --dry-run --wait --reason -h --help" ;;
    "subscriptions get") echo "-h --help" ;;
    "subscriptions help") echo "" ;;
    "courses") echo "-h --help" ;;
    "courses list") echo "--profiles --all-profiles --page --per-page --all -h --help" ;;
    "courses get") echo "-h --help" ;;
    "courses accesses") echo "--profiles --all-profiles --finished --not-finished --never --product -h --help" ;;
    "courses help") echo "" ;;
    "report") echo "-h --help" ;;
    "report engaged-courses") echo "--profiles --all-profiles --top --limit --cursor --max-pages --group-by --chart -h --help" ;;
    "report help") echo "" ;;
    "auth") echo "-h --help" ;;
    "auth login") echo "--token-stdin --no-verify --activate --insecure-storage -h --help" ;;
    "auth status") echo "--offline -h --help" ;;
    "auth switch") echo "-h --help" ;;
    "auth logout") echo "-h --help" ;;
    "auth token") echo "-h --help" ;;
    "auth help") echo "" ;;
    "api") echo "-X --method -f --field --input --paginate -h --help" ;;
    "sandbox") echo "--host --port --seed --students --latency --fail-rate --rate-limit --flavor --paginator --per-page-ignored --per-page-max --server-tz --maintenance --data --login -h --help" ;;
    "completion") echo "-h --help" ;;
    "history") echo "--student --run --since --limit --forget --reason -h --help" ;;
    "undo") echo "--last --student --reason --wait -h --help" ;;
    "version") echo "-h --help" ;;
    "sync") echo "--file --product --add-only --remove-only --max-revoke --check --dry-run --plan-out --apply --include-status-changes --ignore-extra-columns --concurrency --wait --reason -h --help" ;;
    "mcp") echo "--allow-writes --max-rows --show-personal-data --check -h --help" ;;
    "each") echo "--dry-run --first --max-rows --concurrency --only-failed --halt --wait -h --help" ;;
    "record") echo "-h --help" ;;
    "record use") echo "--password-stdin --insecure-storage -h --help" ;;
    "record status") echo "-h --help" ;;
    "record push") echo "--dry-run -h --help" ;;
    "record help") echo "" ;;
    "lock") echo "-h --help" ;;
    "lock list") echo "-h --help" ;;
    "lock break") echo "--reason -h --help" ;;
    "lock help") echo "" ;;
    "help") echo "-h --help" ;;
  esac
  echo "-p --profile -o --output --json --fields --no-header --csv-raw --csv-dialect --no-color -q --quiet -v --verbose --base-url --timeout --retries -y --yes --no-pager --out --summary --notify --notify-always --ping"
}

# __members_values PATH FLAG: completes the value of FLAG.
__members_values() {
  case "$1|$2" in
    "students list|--fields") __members_list "id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions" ;;
    "students search|--fields") __members_list "id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions" ;;
    "students search|--profiles") __members_list "$(__members_names profiles)" ;;
    "students show|--profiles") __members_list "$(__members_names profiles)" ;;
    "students get|--fields") __members_list "id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions" ;;
    "students get|--profiles") __members_list "$(__members_names profiles)" ;;
    "students create|--fields") __members_list "id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions" ;;
    "students products|--fields") __members_list "id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at" ;;
    "students grant|--file") __members_files ;;
    "students grant|--strategy") __members_words "auto rows snapshot" ;;
    "students revoke|--file") __members_files ;;
    "students revoke|--strategy") __members_words "auto rows snapshot" ;;
    "students import|--strategy") __members_words "auto rows snapshot" ;;
    "scores get|--fields") __members_list "score posts comments replies" ;;
    "scores set|--fields") __members_list "score posts comments replies" ;;
    "scores set|--file") __members_files ;;
    "scores add|--fields") __members_list "score posts comments replies" ;;
    "scores add|--file") __members_files ;;
    "magic-link|--fields") __members_list "expire_in url" ;;
    "magic-link|--file") __members_files ;;
    "products list|--fields") __members_list "id title description period external_checkout_product lifetime status type sales_page_url support_email trial upsell upsell_url created_at updated_at subscribers.active subscribers.inactive" ;;
    "products list|--profiles") __members_list "$(__members_names profiles)" ;;
    "products get|--fields") __members_list "id title description period external_checkout_product lifetime status type sales_page_url support_email trial upsell upsell_url created_at updated_at subscribers.active subscribers.inactive" ;;
    "subscriptions list|--fields") __members_list "id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at" ;;
    "subscriptions list|--profiles") __members_list "$(__members_names profiles)" ;;
    "subscriptions list|--status") __members_list "active inactive refunded chargeback canceled" ;;
    "subscriptions list|--access") __members_words "active inactive" ;;
    "subscriptions list|--product") __members_helper products ;;
    "subscriptions extend|--product") __members_helper products ;;
    "subscriptions get|--fields") __members_list "id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at" ;;
    "courses list|--fields") __members_list "id title description status slug url_upsell text_upsell blocked published modules" ;;
    "courses list|--profiles") __members_list "$(__members_names profiles)" ;;
    "courses get|--fields") __members_list "id title description status slug url_upsell text_upsell blocked published modules" ;;
    "courses accesses|--fields") __members_list "id name email course.id course.name course.last_access_at course.finished course.finished_at" ;;
    "courses accesses|--profiles") __members_list "$(__members_names profiles)" ;;
    "courses accesses|--product") __members_helper products ;;
    "report engaged-courses|--fields") __members_list "id user_id course_id course_name product_name first_name last_name phone document email registration_date course_completion_percent course_avg_engagement_score" ;;
    "report engaged-courses|--profiles") __members_list "$(__members_names profiles)" ;;
    "report engaged-courses|--group-by") __members_words "course" ;;
    "api|-X"|"api|--method") __members_words "GET POST PUT PATCH DELETE" ;;
    "api|--input") __members_files ;;
    "sandbox|--flavor") __members_words "default laravel" ;;
    "sandbox|--paginator") __members_words "length-aware simple" ;;
    "sandbox|--data") __members_files ;;
    "version|--fields") __members_list "version node platform" ;;
    "sync|--file") __members_files ;;
    "sync|--product") __members_helper products ;;
    "each|--halt") __members_words "now soon never" ;;
    "record status|--fields") __members_list "profile home source where answers schema changes problem" ;;
    "lock list|--fields") __members_list "id base_url products user host pid command since expires" ;;
    *"|-p"|*"|--profile") __members_helper profiles ;;
    *"|-o"|*"|--output") __members_words "table json ndjson csv xlsx" ;;
    *"|--csv-dialect") __members_words "rfc4180 excel excel-br" ;;
    *"|--out") __members_files ;;
    *"|--summary") __members_files ;;
  esac
}

# __members_argument PATH INDEX: completes the positional argument INDEX (from 0) of PATH.
__members_argument() {
  case "$1|$2" in
    "students grant|"*) (( $2 >= 1 )) && __members_helper products ;;
    "students revoke|"*) (( $2 >= 1 )) && __members_helper products ;;
    "students import|0") __members_files ;;
    "students help|0") __members_words "list search show get create delete products grant revoke transfer import" ;;
    "scores help|0") __members_words "get set add" ;;
    "products get|0") __members_helper products ;;
    "products help|0") __members_words "list get snapshot" ;;
    "subscriptions help|0") __members_words "list extend get" ;;
    "courses get|0") __members_helper courses ;;
    "courses accesses|0") __members_helper courses ;;
    "courses help|0") __members_words "list get accesses" ;;
    "report help|0") __members_words "engaged-courses" ;;
    "auth switch|0") __members_helper profiles ;;
    "auth help|0") __members_words "login status switch logout token" ;;
    "completion|0") __members_words "bash zsh fish powershell" ;;
    "undo|0") __members_helper undo ;;
    "each|0") __members_files ;;
    "record help|0") __members_words "use status push" ;;
    "lock help|0") __members_words "list break" ;;
  esac
}

# Plain reads, not mapfile: bash 3.2 (macOS) has no mapfile.
__members_words() {
  local word
  while IFS= read -r word; do COMPREPLY+=("$word"); done < <(IFS=$' \t\n'; compgen -W "$1" -- "$cur")
}

# A comma-separated list: completes the item after the last comma, skipping items already given.
__members_list() {
  local prefix="" word
  [[ $cur == *,* ]] && prefix="${cur%,*},"
  # No space after an item: the list may go on with a comma.
  compopt -o nospace 2>/dev/null
  for word in $1; do
    [[ ",$prefix" == *",$word,"* ]] && continue
    [[ "$prefix$word" == "$cur"* ]] && COMPREPLY+=("$prefix$word")
  done
}

# __members_names NAME: the values alone of `members __complete-NAME LINE`, for a comma list (profile names).
__members_names() {
  local line
  while IFS= read -r line; do [[ -n $line ]] && printf '%s ' "${line%%$'\t'*}"; done < <(command members "__complete-$1" "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
}

__members_files() {
  compopt -o filenames 2>/dev/null
  local file
  while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$cur")
}

# __members_helper NAME: values only this machine knows (profile names, undo ids, product and course ids), from
# `members __complete-NAME LINE` (LINE up to the cursor, for its -p; never tokens; nothing on any error).
# A line may end with a TAB and a description (a product's title, what an undo id changed): when bash lists
# several candidates (COMP_TYPE ? ! @) each is shown beside its value, as zsh and fish do, one a line; a Tab
# or menu completion inserts the value alone. A product or course may be named by the start of its title too:
# where no id begins with the word, the titles that do (case ignored) are offered, quoted, the id beside each.
__members_helper() {
  local line value typed nocase q="'"
  local -a values=() lines=() all=()
  local -i width=0 k
  while IFS= read -r line; do [[ -n $line ]] && all+=("$line"); done < <(command members "__complete-$1" "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
  for line in "${all[@]}"; do
    value=${line%%$'\t'*}
    [[ -n $value && $value == "$cur"* ]] || continue
    values+=("$value")
    lines+=("$line")
    (( ${#value} > width )) && width=${#value}
  done
  if (( ${#values[@]} == 0 )) && [[ -n $cur && ( $1 == products || $1 == courses ) ]]; then
    # An opening quote typed is readline's to keep: the title then goes without its own.
    typed=${cur#[\"\']}
    nocase=$(shopt -p nocasematch)
    shopt -s nocasematch
    for line in "${all[@]}"; do
      [[ $line == *$'\t'* && ${line#*$'\t'} == "$typed"* ]] || continue
      value=${line#*$'\t'}
      [[ $typed == "$cur" ]] && value=$q${value//$q/$q\\$q$q}$q
      values+=("$value")
      lines+=("$value"$'\t'"${line%%$'\t'*}")
      (( ${#value} > width )) && width=${#value}
    done
    $nocase
  fi
  case ${#values[@]}:${COMP_TYPE-} in
    0:*) return ;;
    1:*|*:9|*:37|*:) COMPREPLY+=("${values[@]}"); return ;;
  esac
  for (( k = 0; k < ${#values[@]}; k++ )); do
    line=${values[k]}
    [[ ${lines[k]} == *$'\t'* ]] && printf -v line '%-*s  -- %s' "$width" "$line" "${lines[k]#*$'\t'}"
    # Cut to the screen, and at least half as wide: readline then shows one a line.
    (( ${COLUMNS:-0} > width + 8 )) && line=${line:0:COLUMNS-1} && printf -v line '%-*s' $(( COLUMNS / 2 )) "$line"
    COMPREPLY+=("$line")
  done
}

# __members_stacked PATH WORD: stacked short flags (-qo): the first letter that takes a value takes the rest of
# the word as its value, or, last in the word, the next word; then it stands for that flag alone (-o).
__members_stacked() {
  local -i j
  for (( j = 1; j < ${#2}; j++ )); do
    if __members_takes_value "$1" "-${2:j:1}"; then
      (( j == ${#2} - 1 )) && { printf '%s' "-${2:j:1}"; return; }
      break
    fi
  done
  printf '%s' "$2"
}

# __members_line: WORDS, CWORD (the index of the word under the cursor) and CUR (that word up to the cursor), as the
# shell will split the line to run it. bash also splits COMP_WORDS at the characters of COMP_WORDBREAKS (`@`,
# `:`, `=`; bash-completion takes `@` out), which would make `ana@example.com` three words and
# `--base-url=http://h:8080` seven: the pieces no blank separates in COMP_LINE are one word again.
__members_line() {
  local piece
  local -i pos=0 gap
  words=() starts=() cword=-1 cur=""
  for piece in "${COMP_WORDS[@]}"; do
    # The empty word bash adds for a cursor on a blank is found below, from COMP_POINT.
    [[ -n $piece ]] || continue
    gap=0
    while [[ ${COMP_LINE:pos:1} == [[:space:]] ]]; do pos+=1; gap=1; done
    if [[ ${COMP_LINE:pos:${#piece}} != "$piece" ]]; then
      # A line some other completion rewrote: its words as they are.
      words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]-}
      return
    fi
    if (( gap || ${#words[@]} == 0 )); then
      (( cword < 0 && COMP_POINT < pos )) && cword=${#words[@]}
      words+=("$piece")
      starts+=("$pos")
    else
      words[${#words[@]}-1]+=$piece
    fi
    pos+=${#piece}
    if (( cword < 0 && COMP_POINT <= pos )); then
      cword=${#words[@]}-1
      cur=${COMP_LINE:starts[cword]:COMP_POINT-starts[cword]}
    fi
  done
  (( cword < 0 )) && cword=${#words[@]}
  return 0
}

# __members_trim: readline replaces only what follows the last word-break character before the cursor (outside
# quotes, unescaped): the candidates, written for the whole word (LEAD, as in `--opt=`, then CUR), lose what
# comes before it, as bash-completion's __ltrim_colon_completions does for `:`.
__members_trim() {
  local typed="$lead$cur" quote="" char
  local -i k n=0
  for (( k = 0; k < ${#typed}; k++ )); do
    char=${typed:k:1}
    if [[ $char == '\' && $quote != "'" ]]; then
      k+=1
    elif [[ -n $quote ]]; then
      [[ $char == "$quote" ]] && quote=""
    elif [[ $char == [\"\'] ]]; then
      quote=$char
    elif [[ $char != [[:space:]] && $COMP_WORDBREAKS == *"$char"* ]]; then
      n=k+1
    fi
  done
  for k in "${!COMPREPLY[@]}"; do
    COMPREPLY[k]=$lead${COMPREPLY[k]}
    COMPREPLY[k]=${COMPREPLY[k]#"${typed:0:n}"}
  done
}

_members() {
  local cur lead="" path="" option="" word sub
  local -a words starts
  local -i cword i=1 nargs=0 rest=0
  COMPREPLY=()
  __members_line
  # Walk the words before the cursor: subcommands extend the path, options
  # skip their values (`--opt value`; `--opt=value` carries its own).
  while (( i < cword )); do
    word="${words[i]}"
    if (( rest == 0 )) && [[ $word == -* ]]; then
      [[ $word == -[!-]?* ]] && word="$(__members_stacked "$path" "$word")"
      if [[ $word == -- ]]; then
        rest=1
      elif [[ $word != *=* ]] && __members_takes_value "$path" "$word"; then
        if (( i + 1 == cword )); then
          option="$word"
          break
        fi
        i+=1
      fi
    elif (( nargs == 0 )) && sub="$(__members_subcommand "$path" "$word")"; then
      path="${path:+$path }$sub"
    else
      nargs+=1
    fi
    i+=1
  done
  if [[ -z $option && $cur == --*=* ]] && (( rest == 0 )) && __members_takes_value "$path" "${cur%%=*}"; then
    option=${cur%%=*}
    lead="$option="
    cur=${cur#*=}
  fi

  if [[ -n $option ]]; then
    __members_values "$path" "$option"
  elif (( rest == 0 )) && [[ $cur == -* ]]; then
    __members_words "$(__members_flags "$path")"
  elif (( nargs == 0 )) && [[ -n "$(__members_commands "$path")" ]]; then
    __members_words "$(__members_commands "$path")"
  else
    __members_argument "$path" "$nargs"
  fi
  __members_trim
  return 0
}

complete -F _members members
