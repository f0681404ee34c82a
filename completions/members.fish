# fish completion for members
#
# Generated from the command tree by `members completion fish`; do not edit.
# Regenerate with `npm run completions`. Install: see docs/completion.md.

# __members_subcommand PATH WORD: the name of the subcommand WORD (a name or an alias) of PATH.
function __members_subcommand --argument-names path word
    switch "$path|$word"
        case '|students'
            echo students
        case '|scores'
            echo scores
        case '|magic-link'
            echo magic-link
        case '|products'
            echo products
        case '|subscriptions'
            echo subscriptions
        case '|courses'
            echo courses
        case '|report'
            echo report
        case '|auth'
            echo auth
        case '|api'
            echo api
        case '|sandbox'
            echo sandbox
        case '|completion'
            echo completion
        case '|history'
            echo history
        case '|undo'
            echo undo
        case '|version'
            echo version
        case '|sync'
            echo sync
        case '|mcp'
            echo mcp
        case '|each'
            echo each
        case '|record'
            echo record
        case '|lock'
            echo lock
        case '|help'
            echo help
        case 'students|list'
            echo list
        case 'students|search'
            echo search
        case 'students|show'
            echo show
        case 'students|get'
            echo get
        case 'students|create'
            echo create
        case 'students|delete'
            echo delete
        case 'students|products'
            echo products
        case 'students|grant'
            echo grant
        case 'students|revoke'
            echo revoke
        case 'students|transfer'
            echo transfer
        case 'students|import'
            echo import
        case 'students|help'
            echo help
        case 'scores|get'
            echo get
        case 'scores|set'
            echo set
        case 'scores|add'
            echo add
        case 'scores|help'
            echo help
        case 'products|list'
            echo list
        case 'products|get'
            echo get
        case 'products|snapshot'
            echo snapshot
        case 'products|help'
            echo help
        case 'subscriptions|list'
            echo list
        case 'subscriptions|extend'
            echo extend
        case 'subscriptions|get'
            echo get
        case 'subscriptions|help'
            echo help
        case 'courses|list'
            echo list
        case 'courses|get'
            echo get
        case 'courses|accesses'
            echo accesses
        case 'courses|help'
            echo help
        case 'report|engaged-courses'
            echo engaged-courses
        case 'report|help'
            echo help
        case 'auth|login'
            echo login
        case 'auth|status'
            echo status
        case 'auth|switch'
            echo switch
        case 'auth|logout'
            echo logout
        case 'auth|token'
            echo token
        case 'auth|help'
            echo help
        case 'record|use'
            echo use
        case 'record|status'
            echo status
        case 'record|push'
            echo push
        case 'record|help'
            echo help
        case 'lock|list'
            echo list
        case 'lock|break'
            echo break
        case 'lock|help'
            echo help
        case '*'
            return 1
    end
end

# __members_takes_value PATH FLAG: whether FLAG takes a value (the next word) in PATH.
function __members_takes_value --argument-names path flag
    switch "$path|$flag"
        case 'students list|--page' 'students list|--per-page' 'students list|--limit' 'students search|--profiles' 'students show|--profiles' 'students get|--profiles' 'students create|--first-name' 'students create|--last-name' 'students create|--email' 'students create|--phone' 'students create|--birth' 'students create|--document' 'students create|--reference-id' 'students create|--reason' 'students delete|--reason' 'students grant|--accession' 'students grant|--expiration' 'students grant|--reason' 'students grant|--file' 'students grant|--concurrency' 'students grant|--wait' 'students grant|--strategy' 'students revoke|--reason' 'students revoke|--file' 'students revoke|--concurrency' 'students revoke|--wait' 'students revoke|--strategy' 'students transfer|--wait' 'students transfer|--reason' 'students import|--reason' 'students import|--concurrency' 'students import|--wait' 'students import|--strategy' 'scores set|--file' 'scores set|--wait' 'scores set|--reason' 'scores add|--file' 'scores add|--wait' 'scores add|--reason' 'magic-link|--expire-in' 'magic-link|--file' 'magic-link|--wait' 'magic-link|--reason' 'products list|--profiles' 'products list|--page' 'products list|--per-page' 'products list|--compare' 'subscriptions list|--profiles' 'subscriptions list|--page' 'subscriptions list|--per-page' 'subscriptions list|--status' 'subscriptions list|--access' 'subscriptions list|--product' 'subscriptions list|--student' 'subscriptions list|--expiring' 'subscriptions extend|--product' 'subscriptions extend|--days' 'subscriptions extend|--until' 'subscriptions extend|--student' 'subscriptions extend|--wait' 'subscriptions extend|--reason' 'courses list|--profiles' 'courses list|--page' 'courses list|--per-page' 'courses accesses|--profiles' 'courses accesses|--product' 'report engaged-courses|--profiles' 'report engaged-courses|--top' 'report engaged-courses|--limit' 'report engaged-courses|--cursor' 'report engaged-courses|--max-pages' 'report engaged-courses|--group-by' 'api|-X' 'api|--method' 'api|-f' 'api|--field' 'api|--input' 'sandbox|--host' 'sandbox|--port' 'sandbox|--seed' 'sandbox|--students' 'sandbox|--latency' 'sandbox|--fail-rate' 'sandbox|--rate-limit' 'sandbox|--flavor' 'sandbox|--paginator' 'sandbox|--per-page-ignored' 'sandbox|--per-page-max' 'sandbox|--server-tz' 'sandbox|--data' 'history|--student' 'history|--run' 'history|--since' 'history|--limit' 'history|--forget' 'history|--reason' 'undo|--student' 'undo|--reason' 'undo|--wait' 'sync|--file' 'sync|--product' 'sync|--max-revoke' 'sync|--plan-out' 'sync|--apply' 'sync|--concurrency' 'sync|--wait' 'sync|--reason' 'mcp|--max-rows' 'each|--first' 'each|--max-rows' 'each|--concurrency' 'each|--halt' 'each|--wait' 'lock break|--reason' '*|-p' '*|--profile' '*|-o' '*|--output' '*|--fields' '*|--csv-dialect' '*|--base-url' '*|--timeout' '*|--retries' '*|--out' '*|--summary' '*|--notify' '*|--ping'
            return 0
    end
    return 1
end

# Prints the command path of the line being completed, then how many
# positional arguments follow it.
function __members_state
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l nargs 0
    set -l skip 0
    set -l rest 0
    set -l sub
    for word in $words
        if test $skip -eq 1
            set skip 0
        else if test $rest -eq 0; and string match -q -- '-*' $word
            if test "$word" = --
                set rest 1
            else if __members_takes_value "$path" $word
                set skip 1
            else if string match -qr -- '^-[^-].' $word
                # Stacked short flags (-qo): the first letter that takes a value takes the rest, or the next word.
                set -l letters (string split '' -- (string sub -s 2 -- $word))
                for j in (seq (count $letters))
                    if __members_takes_value "$path" -$letters[$j]
                        test $j -eq (count $letters); and set skip 1
                        break
                    end
                end
            end
        else if test $nargs -eq 0; and set sub (__members_subcommand "$path" $word)
            if test -z "$path"
                set path $sub
            else
                set path "$path $sub"
            end
        else
            set nargs (math $nargs + 1)
        end
    end
    printf '%s\n' "$path" $nargs
end

# __members_at PATH: the line is at the command PATH.
function __members_at --argument-names path
    set -l state (__members_state)
    test "$state[1]" = "$path"
end

# __members_arg PATH INDEX [+]: the word being completed is positional argument INDEX of PATH (or later, with +).
function __members_arg --argument-names path index more
    set -l state (__members_state)
    test "$state[1]" = "$path"; or return 1
    test "$state[2]" -eq $index; or begin; test "$more" = +; and test "$state[2]" -gt $index; end
end

# A comma-separated list: completes the item after the last comma, skipping items already given.
function __members_list
    set -l prefix (string match -r -- '^.*,' (commandline -ct)); or set prefix ''
    for word in $argv
        contains -- $word (string split , -- $prefix); or echo $prefix$word
    end
end

# __members_helper NAME: values only this machine knows (profile names, undo ids, product and course ids), with their
# descriptions after a TAB, from `members __complete-NAME LINE` (LINE up to the cursor, for its -p; never tokens;
# nothing on any error).
function __members_helper
    command members __complete-$argv[1] (commandline -cp) 2>/dev/null
end

# No file names unless an option or argument takes a file.
complete -c members -f

# Global options
complete -c members -s p -l profile -x -a '(__members_helper profiles)' -d 'profile to use (env MEMBERS_PROFILE)'
complete -c members -s o -l output -x -a 'table json ndjson csv xlsx' -d 'output format (default: table; csv with --csv-dialect, xlsx with --out FILE.xlsx)'
complete -c members -l json -d 'same as -o json'
complete -c members -l fields -x -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -l no-header -d 'no header row in table, csv and xlsx'
complete -c members -l csv-raw -d 'write csv cells untouched (no spreadsheet formula guard)'
complete -c members -l csv-dialect -x -a 'rfc4180 excel excel-br' -d 'csv for scripts, or for Excel/LibreOffice (env MEMBERS_CSV_DIALECT)'
complete -c members -l no-color -d 'no colour'
complete -c members -s q -l quiet -d 'no spinner, progress, notices or warnings'
complete -c members -s v -l verbose -d 'log every HTTP exchange on stderr, secrets redacted'
complete -c members -l base-url -x -d 'API base URL (env MEMBERS_BASE_URL)'
complete -c members -l timeout -x -d 'per-request timeout'
complete -c members -l retries -x -d 'retry budget per request'
complete -c members -s y -l yes -d 'answer yes to confirmations'
complete -c members -l no-pager -d 'never page long output at a terminal (env MEMBERS_PAGER, PAGER; default less -FRX)'
complete -c members -l out -r -F -d 'write the result to FILE (atomically, mode 0600); - is stdout; without -o, .csv .json .ndjson .xlsx choose the format'
complete -c members -l summary -r -F -d 'when the command ends, whatever its exit code, write one JSON object there: command, profile, run id, exit code, duration, counts (for cron)'
complete -c members -l notify -x -d 'POST the summary to a webhook (Slack, Google Chat, Teams by host; JSON elsewhere) when a person is needed: exit 2, or 7 and above'
complete -c members -l notify-always -d 'with --notify: whatever the exit code'
complete -c members -l ping -x -d 'tell a monitor, healthchecks style: URL/start at the start, URL on exit 0, URL/fail otherwise (the exit code as the body)'

# Commands, their options and arguments
complete -c members -n '__members_arg \'\' 0' -a students -d 'List, look up, create and delete students; grant and revoke their products'
complete -c members -n '__members_arg \'\' 0' -a scores -d 'Read and set a student\'s community score'
complete -c members -n '__members_arg \'\' 0' -a magic-link -d 'Create a time-limited link that logs a student in; prints the URL alone'
complete -c members -n '__members_arg \'\' 0' -a products -d 'List products and their subscriber counts'
complete -c members -n '__members_arg \'\' 0' -a subscriptions -d 'List and inspect subscriptions (a student with a product)'
complete -c members -n '__members_arg \'\' 0' -a courses -d 'List courses, their modules and lessons, and who accessed them'
complete -c members -n '__members_arg \'\' 0' -a report -d 'Partner reports of the platform'
complete -c members -n '__members_arg \'\' 0' -a auth -d 'Log in, switch and inspect profiles and their tokens'
complete -c members -n '__members_arg \'\' 0' -a api -d 'Send an authenticated request to the API and print the JSON body'
complete -c members -n '__members_arg \'\' 0' -a sandbox -d 'Run a local server that implements the whole API on seeded data'
complete -c members -n '__members_arg \'\' 0' -a completion -d 'Print the shell completion script for bash, zsh, fish or PowerShell'
complete -c members -n '__members_arg \'\' 0' -a history -d 'Show the changes recorded (this machine\'s audit log, or the team record: members record), newest first'
complete -c members -n '__members_arg \'\' 0' -a undo -d 'Reverse a change recorded in the audit log — a grant, renewal, revoke, scores set or delete — or every change of a run (see `members history`)'
complete -c members -n '__members_arg \'\' 0' -a version -d 'Print the version, the Node.js version and the platform, one a line (for bug reports)'
complete -c members -n '__members_arg \'\' 0' -a sync -d 'Make product access match a CSV of who should have it: planned, capped, recorded, undoable'
complete -c members -n '__members_arg \'\' 0' -a mcp -d 'Serve an AI assistant (Claude Desktop, VS Code, Cursor) over MCP on stdio: read-only tools, personal data masked'
complete -c members -n '__members_arg \'\' 0' -a each -d 'Run a members command once per row of a CSV file, as one run ({column} placeholders)'
complete -c members -n '__members_arg \'\' 0' -a record -d 'Choose where the change record lives: this machine (local) or the team\'s PostgreSQL, shared by the desk and cron'
complete -c members -n '__members_arg \'\' 0' -a lock -d 'List the leases of runs that change many students, or end one whose run is gone'
complete -c members -n '__members_arg \'\' 0' -a help -d 'Show help for a command, or a help topic'
complete -c members -n '__members_at \'\'' -s V -l version -d 'print the version'
complete -c members -n '__members_at \'\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'students\' 0' -a list -d 'List students, one page at a time (--all for every page)'
complete -c members -n '__members_arg \'students\' 0' -a search -d 'Find students by a name, e-mail, phone, document or reference fragment (reads the whole student list)'
complete -c members -n '__members_arg \'students\' 0' -a show -d 'Everything about one student: subscriptions with access and why, score, course progress, and the changes made from this machine'
complete -c members -n '__members_arg \'students\' 0' -a get -d 'Show one student and its subscriptions'
complete -c members -n '__members_arg \'students\' 0' -a create -d 'Create a student'
complete -c members -n '__members_arg \'students\' 0' -a delete -d 'Delete a student (asks first; --yes when not on a terminal)'
complete -c members -n '__members_arg \'students\' 0' -a products -d 'List a student\'s subscriptions (products, status, access, dates)'
complete -c members -n '__members_arg \'students\' 0' -a grant -d 'Give a student a product (or several), or give the rows of a CSV with --file; nothing is sent when access is already on'
complete -c members -n '__members_arg \'students\' 0' -a revoke -d 'Take a product (or several) away from a student, or the rows of a CSV with --file (asks first; --yes when not on a terminal)'
complete -c members -n '__members_arg \'students\' 0' -a transfer -d 'Move every product a student holds with access to another student, with the same dates (a mistyped e-mail, a new e-mail)'
complete -c members -n '__members_arg \'students\' 0' -a import -d 'Create the students of a CSV file; e-mails that exist already are skipped'
complete -c members -n '__members_arg \'students\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'students\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students list\'' -l fields -x -a '(__members_list id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'students list\'' -l with-subscriptions -d 'include each student\'s subscriptions'
complete -c members -n '__members_at \'students list\'' -l page -x -d 'page to show, from 1 (default 1)'
complete -c members -n '__members_at \'students list\'' -l per-page -x -d 'records per page (default: the server\'s; 100 with --all)'
complete -c members -n '__members_at \'students list\'' -l all -d 'follow the pages to the end'
complete -c members -n '__members_at \'students list\'' -l limit -x -d 'stop after N records, fetching only the pages needed'
complete -c members -n '__members_at \'students list\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students search\'' -l fields -x -a '(__members_list id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'students search\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'students search\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'students search\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students show\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'students show\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'students show\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students get\'' -l fields -x -a '(__members_list id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'students get\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'students get\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'students get\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students create\'' -l fields -x -a '(__members_list id first_name last_name full_name email photo_url phone genre birth document reference_id created_at updated_at subscriptions)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'students create\'' -l first-name -x -d 'first name'
complete -c members -n '__members_at \'students create\'' -l last-name -x -d 'last name'
complete -c members -n '__members_at \'students create\'' -l email -x -d 'e-mail address'
complete -c members -n '__members_at \'students create\'' -l phone -x -d 'phone number'
complete -c members -n '__members_at \'students create\'' -l birth -x -d 'date of birth, YYYY-MM-DD'
complete -c members -n '__members_at \'students create\'' -l document -x -d 'document number'
complete -c members -n '__members_at \'students create\'' -l reference-id -x -d 'id of the student in another system'
complete -c members -n '__members_at \'students create\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students create\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students delete\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students delete\'' -l forget -d 'then erase the student\'s personal data from this machine\'s audit log (LGPD): ids, actions, times and reasons stay'
complete -c members -n '__members_at \'students delete\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students products\'' -l fields -x -a '(__members_list id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'students products\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students grant\'' -l accession -x -d 'accession date, YYYY-MM-DD (default: today)'
complete -c members -n '__members_at \'students grant\'' -l expiration -x -d 'expiration date, YYYY-MM-DD'
complete -c members -n '__members_at \'students grant\'' -l renew -d 'when the subscription exists without access (or with another expiration), revoke it and grant it again, keeping its accession date unless --accession is given (without it: exit 5, nothing sent; a terminal asks); with --file, every row whose renew cell is blank'
complete -c members -n '__members_at \'students grant\'' -l include-status-changes -d 'with --renew: also renew a subscription whose status the grant resets (canceled, refunded, inactive → active); without it such a renewal is refused (exit 5; a bulk row is skipped), nothing sent'
complete -c members -n '__members_at \'students grant\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students grant\'' -l file -r -F -d 'apply the rows of a CSV file instead (- for stdin)'
complete -c members -n '__members_at \'students grant\'' -l concurrency -x -d 'rows in flight at once, 1–32 (default 4)'
complete -c members -n '__members_at \'students grant\'' -l dry-run -d 'check every row and look the students up; change nothing'
complete -c members -n '__members_at \'students grant\'' -l skip-invalid -d 'apply the valid rows and report the invalid ones as failed (default: send nothing)'
complete -c members -n '__members_at \'students grant\'' -l ignore-extra-columns -d 'leave out the columns of the file that are no column of this command (Nome, Valor…), listing them, instead of refusing the file'
complete -c members -n '__members_at \'students grant\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'students grant\'' -l strategy -x -a 'auto rows snapshot' -d 'how the state is read before the changes: rows (look each row up), snapshot (read the student list once), or auto: the fewer requests (default auto)'
complete -c members -n '__members_at \'students grant\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'students grant\' 1 +' -x -a '(__members_helper products)'
complete -c members -n '__members_at \'students revoke\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students revoke\'' -l file -r -F -d 'apply the rows of a CSV file instead (- for stdin)'
complete -c members -n '__members_at \'students revoke\'' -l concurrency -x -d 'rows in flight at once, 1–32 (default 4)'
complete -c members -n '__members_at \'students revoke\'' -l dry-run -d 'check every row and look the students up; change nothing'
complete -c members -n '__members_at \'students revoke\'' -l skip-invalid -d 'apply the valid rows and report the invalid ones as failed (default: send nothing)'
complete -c members -n '__members_at \'students revoke\'' -l ignore-extra-columns -d 'leave out the columns of the file that are no column of this command (Nome, Valor…), listing them, instead of refusing the file'
complete -c members -n '__members_at \'students revoke\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'students revoke\'' -l strategy -x -a 'auto rows snapshot' -d 'how the state is read before the changes: rows (look each row up), snapshot (read the student list once), or auto: the fewer requests (default auto)'
complete -c members -n '__members_at \'students revoke\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'students revoke\' 1 +' -x -a '(__members_helper products)'
complete -c members -n '__members_at \'students transfer\'' -l delete-source -d 'then delete FROM (asks to type its e-mail; refused while FROM would keep a product TO already holds)'
complete -c members -n '__members_at \'students transfer\'' -l include-status-changes -d 'also move a subscription whose status the grant to TO would reset (canceled, refunded, inactive → active); without it such a subscription stays with FROM, listed'
complete -c members -n '__members_at \'students transfer\'' -l dry-run -d 'print the plan and change nothing'
complete -c members -n '__members_at \'students transfer\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'students transfer\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students transfer\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'students import\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'students import\'' -l concurrency -x -d 'rows in flight at once, 1–32 (default 4)'
complete -c members -n '__members_at \'students import\'' -l dry-run -d 'check every row and look the students up; change nothing'
complete -c members -n '__members_at \'students import\'' -l skip-invalid -d 'apply the valid rows and report the invalid ones as failed (default: send nothing)'
complete -c members -n '__members_at \'students import\'' -l ignore-extra-columns -d 'leave out the columns of the file that are no column of this command (Nome, Valor…), listing them, instead of refusing the file'
complete -c members -n '__members_at \'students import\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'students import\'' -l strategy -x -a 'auto rows snapshot' -d 'how the state is read before the changes: rows (look each row up), snapshot (read the student list once), or auto: the fewer requests (default auto)'
complete -c members -n '__members_at \'students import\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'students import\' 0' -r -F
complete -c members -n '__members_arg \'students help\' 0' -x -a 'list search show get create delete products grant revoke transfer import'
complete -c members -n '__members_arg \'scores\' 0' -a get -d 'Show a student\'s score, posts, comments and replies'
complete -c members -n '__members_arg \'scores\' 0' -a set -d 'Set a student\'s score (an integer)'
complete -c members -n '__members_arg \'scores\' 0' -a add -d 'Add N to a student\'s score (negative N takes away); the record keeps the score before and after'
complete -c members -n '__members_arg \'scores\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'scores\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'scores get\'' -l fields -x -a '(__members_list score posts comments replies)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'scores get\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'scores set\'' -l fields -x -a '(__members_list score posts comments replies)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'scores set\'' -l file -r -F -d 'set the score of every row of a CSV file or xlsx workbook (- for stdin): a student column (E-mail, CPF, student…) and a score column (score, Pontos…); one run, undone as one'
complete -c members -n '__members_at \'scores set\'' -l wait -x -d 'with --file: when another run of the same command on the same file is under way, wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'scores set\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'scores set\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'scores add\'' -l fields -x -a '(__members_list score posts comments replies)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'scores add\'' -l file -r -F -d 'add the points of every row of a CSV file or xlsx workbook (- for stdin): a student column and a points column (points, Pontos, score…); one run, undone as one, each row once across a kill and a re-run'
complete -c members -n '__members_at \'scores add\'' -l wait -x -d 'with --file: when another run of the same command on the same file is under way, wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'scores add\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'scores add\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'scores help\' 0' -x -a 'get set add'
complete -c members -n '__members_at \'magic-link\'' -l fields -x -a '(__members_list expire_in url)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'magic-link\'' -l expire-in -x -d 'life of the link: seconds, or a number with s, m, h or d'
complete -c members -n '__members_at \'magic-link\'' -l file -r -F -d 'a link for every row of a CSV file or xlsx workbook (- for stdin), the student found by its header (E-mail, CPF, student…); the results are the rows plus url and expire_in, as members each writes them'
complete -c members -n '__members_at \'magic-link\'' -l wait -x -d 'with --file: when another run of the same command on the same file is under way, wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'magic-link\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'magic-link\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'products\' 0' -a list -d 'List products, one page at a time (--all for every page)'
complete -c members -n '__members_arg \'products\' 0' -a get -d 'Show one product, with its active and inactive subscribers'
complete -c members -n '__members_arg \'products\' 0' -a snapshot -d 'Keep today\'s subscriber counts of every product, for list --compare (run it daily, from cron)'
complete -c members -n '__members_arg \'products\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'products\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'products list\'' -l fields -x -a '(__members_list id title description period external_checkout_product lifetime status type sales_page_url support_email trial upsell upsell_url created_at updated_at subscribers.active subscribers.inactive)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'products list\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'products list\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'products list\'' -l page -x -d 'page to show, from 1 (default 1)'
complete -c members -n '__members_at \'products list\'' -l per-page -x -d 'records per page (default: the server\'s; 100 with --all)'
complete -c members -n '__members_at \'products list\'' -l all -d 'follow the pages to the end'
complete -c members -n '__members_at \'products list\'' -l compare -x -d 'each product now against the snapshot kept on or before DATE (YYYY-MM-DD or last-month)'
complete -c members -n '__members_at \'products list\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'products get\'' -l fields -x -a '(__members_list id title description period external_checkout_product lifetime status type sales_page_url support_email trial upsell upsell_url created_at updated_at subscribers.active subscribers.inactive)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'products get\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'products get\' 0' -x -a '(__members_helper products)'
complete -c members -n '__members_at \'products snapshot\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'products help\' 0' -x -a 'list get snapshot'
complete -c members -n '__members_arg \'subscriptions\' 0' -a list -d 'List subscriptions; filters apply over every page'
complete -c members -n '__members_arg \'subscriptions\' 0' -a extend -d 'Extend every subscription of a product with access (or one student\'s): renewed with the same accession and a later expiration'
complete -c members -n '__members_arg \'subscriptions\' 0' -a get -d 'Show one subscription with its student and product'
complete -c members -n '__members_arg \'subscriptions\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'subscriptions\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'subscriptions list\'' -l fields -x -a '(__members_list id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'subscriptions list\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'subscriptions list\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'subscriptions list\'' -l page -x -d 'page to show, from 1 (default 1)'
complete -c members -n '__members_at \'subscriptions list\'' -l per-page -x -d 'records per page (default: the server\'s; 100 with --all)'
complete -c members -n '__members_at \'subscriptions list\'' -l all -d 'follow the pages to the end'
complete -c members -n '__members_at \'subscriptions list\'' -l status -x -a '(__members_list active inactive refunded chargeback canceled)' -d 'keep these subscription statuses: active, inactive, refunded, chargeback, canceled (comma-separated)'
complete -c members -n '__members_at \'subscriptions list\'' -l access -x -a 'active inactive' -d 'keep subscriptions whose access is released (active) or not (inactive)'
complete -c members -n '__members_at \'subscriptions list\'' -l product -x -a '(__members_helper products)' -d 'keep subscriptions to this product: its id, its title or the start of its title (unknown: exit 2)'
complete -c members -n '__members_at \'subscriptions list\'' -l student -x -d 'keep subscriptions of this student (an id, an e-mail, a CPF, doc:DOCUMENT or ref:REFERENCE)'
complete -c members -n '__members_at \'subscriptions list\'' -l expiring -x -d 'keep subscriptions with access that expire from today to today + DURATION (7d, 36h)'
complete -c members -n '__members_at \'subscriptions list\'' -l expired -d 'keep subscriptions whose expiration date has passed (with or without access: add --access)'
complete -c members -n '__members_at \'subscriptions list\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'subscriptions extend\'' -l product -x -a '(__members_helper products)' -d 'the product (required): the product: its id, its title (case and accents ignored) or the start of its title'
complete -c members -n '__members_at \'subscriptions extend\'' -l days -x -d 'add N days to each expiration'
complete -c members -n '__members_at \'subscriptions extend\'' -l until -x -d 'make DATE (YYYY-MM-DD) the expiration of each'
complete -c members -n '__members_at \'subscriptions extend\'' -l student -x -d 'only this student\'s subscription (an id, an e-mail, a CPF, doc:DOCUMENT or ref:REFERENCE)'
complete -c members -n '__members_at \'subscriptions extend\'' -l include-status-changes -d 'also extend subscriptions whose status the grant resets (canceled, refunded, inactive → active)'
complete -c members -n '__members_at \'subscriptions extend\'' -l dry-run -d 'print the plan (each row old → new) and change nothing'
complete -c members -n '__members_at \'subscriptions extend\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'subscriptions extend\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'subscriptions extend\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'subscriptions get\'' -l fields -x -a '(__members_list id active status product_id payment_last_date accession_date expiration_date cancel_date product.id product.title product.description product.created_at product.updated_at student.id student.first_name student.last_name student.full_name student.email created_at updated_at)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'subscriptions get\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'subscriptions help\' 0' -x -a 'list extend get'
complete -c members -n '__members_arg \'courses\' 0' -a list -d 'List courses with their counts of modules and lessons'
complete -c members -n '__members_arg \'courses\' 0' -a get -d 'Show one course, then its modules and lessons as a tree'
complete -c members -n '__members_arg \'courses\' 0' -a accesses -d 'Who accessed a course: last access, whether and when they finished it; or who holds a product and never opened it'
complete -c members -n '__members_arg \'courses\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'courses\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'courses list\'' -l fields -x -a '(__members_list id title description status slug url_upsell text_upsell blocked published modules)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'courses list\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'courses list\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'courses list\'' -l page -x -d 'page to show, from 1 (default 1)'
complete -c members -n '__members_at \'courses list\'' -l per-page -x -d 'records per page (default: the server\'s; 100 with --all)'
complete -c members -n '__members_at \'courses list\'' -l all -d 'follow the pages to the end'
complete -c members -n '__members_at \'courses list\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'courses get\'' -l fields -x -a '(__members_list id title description status slug url_upsell text_upsell blocked published modules)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'courses get\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'courses get\' 0' -x -a '(__members_helper courses)'
complete -c members -n '__members_at \'courses accesses\'' -l fields -x -a '(__members_list id name email course.id course.name course.last_access_at course.finished course.finished_at)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'courses accesses\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'courses accesses\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'courses accesses\'' -l finished -d 'keep those who finished the course (the certificate list)'
complete -c members -n '__members_at \'courses accesses\'' -l not-finished -d 'keep those who have not finished it'
complete -c members -n '__members_at \'courses accesses\'' -l never -d 'instead: the holders of --product (with access) who never opened the course, with names and e-mails'
complete -c members -n '__members_at \'courses accesses\'' -l product -x -a '(__members_helper products)' -d 'with --never: the product: its id, its title (case and accents ignored) or the start of its title'
complete -c members -n '__members_at \'courses accesses\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'courses accesses\' 0' -x -a '(__members_helper courses)'
complete -c members -n '__members_arg \'courses help\' 0' -x -a 'list get accesses'
complete -c members -n '__members_arg \'report\' 0' -a engaged-courses -d 'Stream the (deprecated) report of the most engaged courses: one row per student and course'
complete -c members -n '__members_arg \'report\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'report\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'report engaged-courses\'' -l fields -x -a '(__members_list id user_id course_id course_name product_name first_name last_name phone document email registration_date course_completion_percent course_avg_engagement_score)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'report engaged-courses\'' -l profiles -x -a '(__members_list (__members_helper profiles | string replace -r \'\\t.*\' \'\'))' -d 'read these stored profiles (comma-separated) in parallel; the output gains a first column, profile'
complete -c members -n '__members_at \'report engaged-courses\'' -l all-profiles -d 'read every stored profile in parallel, as --profiles would'
complete -c members -n '__members_at \'report engaged-courses\'' -l top -x -d 'number of courses in the ranking, 1-50'
complete -c members -n '__members_at \'report engaged-courses\'' -l limit -x -d 'rows per page requested from the server, 2-500'
complete -c members -n '__members_at \'report engaged-courses\'' -l cursor -x -d 'start from this next_cursor of an earlier page'
complete -c members -n '__members_at \'report engaged-courses\'' -l max-pages -x -d 'stop after N pages (default: every page)'
complete -c members -n '__members_at \'report engaged-courses\'' -l group-by -x -a 'course' -d 'one row per course: students, finished, mean completion, the course average (a bar each at a terminal)'
complete -c members -n '__members_at \'report engaged-courses\'' -l chart -d 'with --out FILE.xlsx: a sheet per course with a bar chart of it, and the rows per student with data bars'
complete -c members -n '__members_at \'report engaged-courses\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'report help\' 0' -x -a 'engaged-courses'
complete -c members -n '__members_arg \'auth\' 0' -a login -d 'Store a profile: base URL, and tokens in the OS keychain where one answers, else in the config file (tokens never come from flags)'
complete -c members -n '__members_arg \'auth\' 0' -a status -d 'Show every profile, its masked tokens, where they are stored, and whether the token in force works'
complete -c members -n '__members_arg \'auth\' 0' -a switch -d 'Make another stored profile the active one'
complete -c members -n '__members_arg \'auth\' 0' -a logout -d 'Forget a profile\'s tokens, in the OS keychain or the config file (the profile in force unless --profile)'
complete -c members -n '__members_arg \'auth\' 0' -a token -d 'Print the API token of the profile in force (for scripts)'
complete -c members -n '__members_arg \'auth\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'auth\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'auth login\'' -l token-stdin -d 'read the API token from stdin'
complete -c members -n '__members_at \'auth login\'' -l no-verify -d 'store without checking the token against the API'
complete -c members -n '__members_at \'auth login\'' -l activate -d 'make this profile the active one'
complete -c members -n '__members_at \'auth login\'' -l insecure-storage -d 'store the tokens in plain text in the config file (mode 0600), not in the OS keychain'
complete -c members -n '__members_at \'auth login\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'auth status\'' -l offline -d 'do not check the token against the API'
complete -c members -n '__members_at \'auth status\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'auth switch\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'auth switch\' 0' -x -a '(__members_helper profiles)'
complete -c members -n '__members_at \'auth logout\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'auth token\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'auth help\' 0' -x -a 'login status switch logout token'
complete -c members -n '__members_at \'api\'' -s X -l method -x -a 'GET POST PUT PATCH DELETE' -d 'HTTP method'
complete -c members -n '__members_at \'api\'' -s f -l field -x -d 'add a field: query parameter for GET, JSON body field otherwise (repeatable)'
complete -c members -n '__members_at \'api\'' -l input -r -F -d 'read the JSON request body from FILE, or - for stdin'
complete -c members -n '__members_at \'api\'' -l paginate -d 'follow links.next and print the concatenated data'
complete -c members -n '__members_at \'api\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'sandbox\'' -l host -x -d 'address to listen on'
complete -c members -n '__members_at \'sandbox\'' -l port -x -d 'port (0 picks a free one)'
complete -c members -n '__members_at \'sandbox\'' -l seed -x -d 'seed of the generated data'
complete -c members -n '__members_at \'sandbox\'' -l students -x -d 'number of students to generate'
complete -c members -n '__members_at \'sandbox\'' -l latency -x -d 'delay added to every response (e.g. 20ms, 1s)'
complete -c members -n '__members_at \'sandbox\'' -l fail-rate -x -d 'fraction of requests answered 500/503 (0..1)'
complete -c members -n '__members_at \'sandbox\'' -l rate-limit -x -d 'requests allowed before answering 429: N or N/s per second, N/min per minute (Laravel\'s throttle); sends X-RateLimit-* headers'
complete -c members -n '__members_at \'sandbox\'' -l flavor -x -a 'default laravel' -d 'shapes of the answers: default, or laravel (what a Laravel 8 app sends; see src/sandbox/README.md)'
complete -c members -n '__members_at \'sandbox\'' -l paginator -x -a 'length-aware simple' -d 'lists as length-aware (paginate) or simple (simplePaginate) pages'
complete -c members -n '__members_at \'sandbox\'' -l per-page-ignored -x -d 'every list page holds n records whatever per_page asks, and meta.per_page says n (a controller calling ->paginate(15))'
complete -c members -n '__members_at \'sandbox\'' -l per-page-max -x -d 'a per_page above n is clamped to n, without a 422; meta.per_page says the clamped value (->paginate(min($request->per_page, 50)))'
complete -c members -n '__members_at \'sandbox\'' -l server-tz -x -d 'time zone of the server, for the laravel flavor\'s dates (default Asia/Tokyo)'
complete -c members -n '__members_at \'sandbox\'' -l maintenance -d 'start in maintenance mode: 503 to every request (php artisan down)'
complete -c members -n '__members_at \'sandbox\'' -l data -r -F -d 'persist the state to this JSON file; every change is saved before it is answered'
complete -c members -n '__members_at \'sandbox\'' -l login -d 'store the sandbox as the profile "sandbox" and make it active'
complete -c members -n '__members_at \'sandbox\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'completion\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'completion\' 0' -x -a 'bash zsh fish powershell'
complete -c members -n '__members_at \'history\'' -l student -x -d 'only changes to this student, whichever key the change named it by (id, e-mail, CPF, doc:…, ref:…)'
complete -c members -n '__members_at \'history\'' -l run -x -d 'the changes of one run (a sync, a bulk file, an undo of a run), which the list shows as one entry'
complete -c members -n '__members_at \'history\'' -l since -x -d 'only changes on or after DATE (YYYY-MM-DD, local time)'
complete -c members -n '__members_at \'history\'' -l limit -x -d 'only the N newest changes'
complete -c members -n '__members_at \'history\'' -l forget -x -d 'instead: erase the personal data of this deleted student from the log (LGPD); asks first'
complete -c members -n '__members_at \'history\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'history\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'undo\'' -l last -d 'the most recent change that can be undone (of the profile and base URL in force; a run as a whole), shown and confirmed first'
complete -c members -n '__members_at \'undo\'' -l student -x -d 'with --last: the most recent change to this student, whichever key it was named by (alone, even inside a run)'
complete -c members -n '__members_at \'undo\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'undo\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'undo\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'undo\' 0' -x -a '(__members_helper undo)'
complete -c members -n '__members_at \'version\'' -l fields -x -a '(__members_list version node platform)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'version\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'sync\'' -l file -r -F -d 'the desired state: one row per student and product that should have access (- for stdin)'
complete -c members -n '__members_at \'sync\'' -l product -x -a '(__members_helper products)' -d 'every row is for this product (repeatable): its id, title or start of title; the file then has no product_id column'
complete -c members -n '__members_at \'sync\'' -l add-only -d 'grant, restore and change expirations; never revoke'
complete -c members -n '__members_at \'sync\'' -l remove-only -d 'revoke only; never grant'
complete -c members -n '__members_at \'sync\'' -l max-revoke -x -d 'the most revocations per product, or a percentage of its holders (default: 10 % of its holders, at most 50); over it: exit 9, nothing changed'
complete -c members -n '__members_at \'sync\'' -l check -d 'print the plan and change nothing; exit 8 when anything would change (monitoring)'
complete -c members -n '__members_at \'sync\'' -l dry-run -d 'print the plan and change nothing'
complete -c members -n '__members_at \'sync\'' -l plan-out -x -d 'write the plan to a file and change nothing; apply it later with --apply'
complete -c members -n '__members_at \'sync\'' -l apply -x -d 'apply a plan written by --plan-out, each change checked against the state it was planned from'
complete -c members -n '__members_at \'sync\'' -l include-status-changes -d 'also change expirations where the re-grant resets a status (canceled, refunded → the server\'s default)'
complete -c members -n '__members_at \'sync\'' -l ignore-extra-columns -d 'leave out the columns of the file that are no sync column (Nome, Valor…), listing them, instead of refusing the file'
complete -c members -n '__members_at \'sync\'' -l concurrency -x -d 'changes in flight at once, 1–32 (default 4)'
complete -c members -n '__members_at \'sync\'' -l wait -x -d 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'sync\'' -l reason -x -d 'why you make this change (kept in the local audit log)'
complete -c members -n '__members_at \'sync\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'mcp\'' -l allow-writes -d 'also offer grant, revoke, scores, magic links and undo; each change is confirmed by the person in a form of the client, with a reason (never by the model)'
complete -c members -n '__members_at \'mcp\'' -l max-rows -x -d 'the most records one tool answer holds (the true total is always stated)'
complete -c members -n '__members_at \'mcp\'' -l show-personal-data -d 'send e-mails, CPFs, phones and birth dates unmasked to the assistant (see LGPD below)'
complete -c members -n '__members_at \'mcp\'' -l check -d 'start the server, list its tools and exit 0 (for the person setting it up)'
complete -c members -n '__members_at \'mcp\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'each\'' -l dry-run -d 'check every row and print the command each would run; send nothing'
complete -c members -n '__members_at \'each\'' -l first -x -d 'run the first N rows only, show their results and stop (a canary); run again without it for the rest'
complete -c members -n '__members_at \'each\'' -l max-rows -x -d 'refuse a file with more rows (exit 2)'
complete -c members -n '__members_at \'each\'' -l concurrency -x -d 'rows in flight at once, 1–32 (default 4)'
complete -c members -n '__members_at \'each\'' -l only-failed -d 'run only the rows whose result column says failed (the --out file of an earlier run)'
complete -c members -n '__members_at \'each\'' -l halt -x -a 'now soon never' -d 'what a failed row does to the rest: never (run them all), soon or now (start no new row)'
complete -c members -n '__members_at \'each\'' -l wait -x -d 'when another run of the same command on the same file is under way (any machine of a team record), wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)'
complete -c members -n '__members_at \'each\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'each\' 0' -r -F
complete -c members -n '__members_arg \'record\' 0' -a use -d 'Store where the profile in force keeps its change record: postgres://USER@HOST:PORT/DB (password to the OS keychain, else the config file) or local'
complete -c members -n '__members_arg \'record\' 0' -a status -d 'Say which record the profile uses, whether it answers, its schema version and how many changes it holds (exit 11 when it does not answer)'
complete -c members -n '__members_arg \'record\' 0' -a push -d 'Copy this machine\'s local history and product counts into the team record (each once: a second push adds nothing)'
complete -c members -n '__members_arg \'record\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'record\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'record use\'' -l password-stdin -d 'read the database password from stdin'
complete -c members -n '__members_at \'record use\'' -l insecure-storage -d 'store the password in plain text in the config file (mode 0600), not in the OS keychain'
complete -c members -n '__members_at \'record use\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'record status\'' -l fields -x -a '(__members_list profile home source where answers schema changes problem)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'record status\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'record push\'' -l dry-run -d 'count what would be copied; copy nothing'
complete -c members -n '__members_at \'record push\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'record help\' 0' -x -a 'use status push'
complete -c members -n '__members_arg \'lock\' 0' -a list -d 'Show the live leases of the change record in force: who holds what, since when, until when'
complete -c members -n '__members_arg \'lock\' 0' -a break -d 'End a lease whoever holds it (recorded, with its reason); the run holding it stops at its next renewal'
complete -c members -n '__members_arg \'lock\' 0' -a help -d 'display help for command'
complete -c members -n '__members_at \'lock\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'lock list\'' -l fields -x -a '(__members_list id base_url products user host pid command since expires)' -d 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them'
complete -c members -n '__members_at \'lock list\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_at \'lock break\'' -l reason -x -d 'why (kept in the change record)'
complete -c members -n '__members_at \'lock break\'' -s h -l help -d 'show help for a command'
complete -c members -n '__members_arg \'lock help\' 0' -x -a 'list break'
complete -c members -n '__members_at \'help\'' -s h -l help -d 'show help for a command'
