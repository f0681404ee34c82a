/**
 * `members help TOPIC`: what no single command's --help says (as `gh help environment` and `gh help exit-codes`),
 * and what an operator needs at the prompt for a whole task (bulk runs, undo). A topic named as a command
 * (`undo`) is printed in place of the command's help, and points at `members undo --help`.
 */
export const HELP_TOPICS: Record<string, { summary: string; text: string }> = {
  environment: {
    summary: 'environment variables members reads',
    text: `Environment variables (a flag wins over a variable, a variable over the profile):

  MEMBERS_PROFILE          profile to use (like --profile)
  MEMBERS_BASE_URL         API base URL (like --base-url)
  MEMBERS_TOKEN            API bearer token
  MEMBERS_DEVELOPER_TOKEN  engaged-courses report: developer token
  MEMBERS_PLATFORM_TOKEN   engaged-courses report: platform token
  MEMBERS_CONFIG_DIR       directory of config.json and audit.jsonl
                           (default: $XDG_CONFIG_HOME/members, else the platform's config directory)
  MEMBERS_RECORD_URL       the change record for this run: postgres://USER[:PASSWORD]@HOST:PORT/DB
                           (a team record; TLS as its sslmode says) or local (members record use stores it)
  PGPASSWORD               the team record's password, when neither the URL nor the profile holds it
  MEMBERS_KEYCHAIN=off     never ask the OS keychain: tokens are read from and stored in config.json
                           (a keychain that never answers blocks a run; auto, the default, uses one where it answers)
  MEMBERS_DEBUG=1          stack traces for errors; after the run, what the update notice did,
                           the V8 flags and the code cache's state
  MEMBERS_NO_SPINNER=1     no spinners or progress bars (screen readers), messages unchanged
  MEMBERS_CSV_DIALECT      the default of --csv-dialect (e.g. excel-br)
  MEMBERS_PAGER, PAGER     the pager for output longer than the terminal (default less -FRX,
                           none with TERM=dumb; empty MEMBERS_PAGER or --no-pager: none;
                           never into a pipe or file, nor at a terminal of unknown height)
  LESS, LV                 the pager's own options (default LESS=FRX, LV=-c, as gh sets them)
  MEMBERS_NO_UPDATE_NOTIFIER=1  no update notice, no check of the registry (also off in CI,
                           with --quiet and when stderr is not a terminal)
  MEMBERS_UPDATE_REGISTRY  the registry the update check asks about members-cli, once a day
                           (default: npm_config_registry, else https://registry.npmjs.org)
  npm_config_registry, NPM_CONFIG_REGISTRY  the registry npm is told to use

Files:
  XDG_CONFIG_HOME          where the config directory goes (absolute paths only)
  APPDATA                  Windows: the config directory's parent
  XDG_CACHE_HOME           where the code cache and the update check's state go
                           (default ~/.cache; macOS ~/Library/Caches)
  LOCALAPPDATA             Windows: the cache directory's parent
  NODE_DISABLE_COMPILE_CACHE=1  no code cache (Node's own switch)
  USER, LOGNAME, USERNAME  who made a change, as the audit log records it
  HOME                     what ~/ means in a path typed in members mcp's magic-link form

Terminal and colour:
  NO_COLOR                 no colour (any non-empty value)
  FORCE_COLOR, CLICOLOR_FORCE  colour even when not a terminal (FORCE_COLOR=0 turns it off)
  CLICOLOR=0               no colour
  TERM=dumb                no colour, no spinners, tables boxed in ASCII, no default pager
  CI                       no spinners or progress bars, no update notice
  TZ                       the time zone of the times shown in tables (e.g. America/Sao_Paulo)

Network:
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lowercase)   an egress proxy, as curl reads them
  NODE_EXTRA_CA_CERTS      a PEM file of extra certificate authorities (a company CA)
  NODE_USE_SYSTEM_CA=1     Node 22.19, 24.6 and later: trust the operating system's certificate store
`,
  },
  'exit-codes': {
    summary: 'what each exit code means',
    text: `Exit codes (scripts may rely on them):

  0    success (also: the state asked for already held)
  1    unexpected internal error, or results that could not be written (--out on a full disk)
  2    usage or invalid input, found before any change was sent; also a PRODUCT or COURSE
       name given to a change or a filter that names no product (or several)
  3    authentication or authorization: no credentials, 401, 403; stored tokens in an OS keychain
       that does not answer (unlock it, or see MEMBERS_KEYCHAIN in members help environment)
  4    not found (404); also products get, courses get|accesses of a PRODUCT or COURSE
       found neither as an id nor by title (ids are free text: it may be an unknown id)
  5    the server rejected the request (400, 409, 422), or the state asked for needs a change
       the command was not told to make (grant over a subscription without access: --renew)
  6    transient failure after retries: 429, 5xx, network error, timeout; also a bulk run
       whose every failed row failed for such a reason
  7    bulk run: at least one row failed (the others were applied), or (each) was left in
       flight at a kill, not yet known to be applied; any run (sync, a bulk file, extend,
       transfer): a change was stale (the subscription changed since the run read it: read
       again before a revoke or renewal, nothing was sent for it)
  8    sync --check: the platform differs from the file (something would change)
  9    sync: a product would lose more holders than --max-revoke (or the default cap:
       10 % of its holders, at most 50) allows; nothing was changed
  10   another run holds a lease on the same platform and products (a sync, a bulk file,
       extend, transfer), or runs the same command on the same file (each): nothing was
       sent; the message names the holder. Run again later,
       wait with --wait DURATION, or end a dead run's lease: members lock break ID --reason TEXT
  11   the change record cannot be written (a team's PostgreSQL down or refusing): no change
       is sent unless it is recorded; a run stops cleanly with its summary. Reads still work.
       See members record status; a re-run completes the run exactly once
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP); a change in flight is waited for and recorded
       first, a bulk run prints its summary first
  141  stdout was closed by its reader (… | head); a bulk run prints its summary and
       records what it applied first
`,
  },
  formatting: {
    summary: 'output formats, --fields, CSV rules, workbooks, dates and times',
    text: `Formatting the result (-o, --json, --fields, --no-header, --out):

  -o table    default; columns chosen for a support desk, fitted to the terminal
  -o json     one JSON object for one record, one array for a list (pretty on a terminal)
  -o ndjson   one JSON record per line; lists stream as pages arrive
  -o csv      RFC 4180, UTF-8, a header row (--no-header to drop it); nested objects
              flattened with dot paths (product.title); arrays as JSON text
  -o xlsx     an Excel workbook, the columns of csv: ids, documents and phones as text,
              numbers as numbers, dates as dates in your zone, a bold frozen header;
              needs --out FILE.xlsx (which alone chooses it) or stdout redirected

  --fields id,email,product.title   keep these fields, in this order, in every format
  --out FILE  write to FILE atomically (mode 0600); - is stdout

CSV cells a spreadsheet would run as a formula (leading =, +, -, @, tab, CR) get a
leading ' unless they are plain numbers or phone numbers; --csv-raw writes them as they are.

Spreadsheets: -o xlsx is what a person opens with a double click, in any locale. For a
csv, --csv-dialect excel (BOM, CRLF) or excel-br (also ; and decimal commas, for
Excel and LibreOffice in Portuguese) imply -o csv; digits a spreadsheet would change
(leading zeros, 12+ digits) become ="0123", times become 2024-03-05 14:22:00 in your zone.
Set MEMBERS_CSV_DIALECT=excel-br once to make it the default of csv output.

Dates and times: json, ndjson and csv give instants as the API sends them; tables show
them in your time zone (TZ), naming the zone in the column header unless it is UTC, and
xlsx gives them as dates in that zone.
Date-only fields (birth, accession_date, expiration_date) are YYYY-MM-DD in every format.
`,
  },
  bulk: {
    summary: 'grant, revoke and import from a CSV file',
    text: `Bulk runs from a CSV file (- reads stdin):

  members students grant --file grants.csv --yes --reason "nightly sync"
  members students revoke --file revokes.csv --yes
  members students import new-students.csv --dry-run

Columns (a header row; names in any order and any case):
  grant    student,product_id[,accession_date][,expiration_date][,renew]
  revoke   student,product_id
  import   first_name,last_name,email[,phone][,birth][,document][,reference_id]
  student is any STUDENT key (members help student-keys); product_id an id, a title or
  the start of one (any dash, quote or space as typed). A file members exported reads
  back as it is (student.email, product.id…); a header with ; and no , (Excel in
  Portuguese) is read with ;.
An xlsx workbook is read too (by its bytes, stdin as well): its first sheet, the first
row that holds something as the header, "line N" as the sheet numbers rows; cells as
shown (a CPF typed as a number, or through a 000.000.000-00 mask, reads as its digits
as shown; dates YYYY-MM-DD; a formula its saved result). .xls and .ods: save as .xlsx.
Spreadsheet headers (case, accents and spaces ignored):
  student          E-mail, Email, CPF, Documento, Aluno
  product_id       Produto, Curso, Product
  accession_date   Data da compra, Data de início, Adesão
  expiration_date  Válido até, Validade, Expira em, Data de expiração
  stderr says which column was read as what. Other columns (Nome, Valor) are refused
  unless --ignore-extra-columns, which lists them. Dates are YYYY-MM-DD or DD/MM/YYYY
  (05/03/2026 is 5 March; never read as MM/DD).

Every row is checked before anything is sent: a bad row prints "error: line N: …" and
the run sends nothing (exit 2), unless --skip-invalid (the bad rows are reported failed).
--dry-run checks the rows and looks the students up, changing nothing.

More than 20 rows, or a revoke, asks on a terminal; off one (cron) or from stdin it
needs --yes. --concurrency N (1-32, default 4) rows at once.

Reads: under a rate limit a run's time is its requests, so the state is read the
cheaper way (--strategy auto): one walk of the student list (100 students a request)
or a lookup per row, whichever sends fewer; then only the changes are sent. The
summary line says which and why: (read 20 pages instead of 1,500 lookups).
--strategy rows or snapshot forces one.

Each row changes only what is missing: running the same file again is safe, and rows
already applied come back skipped. A renew cell (yes/no), or --renew for blank cells,
renews a subscription that exists without access; one whose status the grant would
reset (canceled, inactive, refunded) is skipped unless --include-status-changes.

Output: one record per row (line, student, product_id, result, message); result is
granted, revoked, renewed, created, skipped or failed. With --out FILE the file is
written even when rows failed. stderr ends with a summary line.

Exit codes: 0 all done; 7 a row failed (the others were applied); 6 every failed row
failed for a transient reason (run again later); 2 invalid input, nothing sent;
130 interrupted (Ctrl-C, SIGTERM, SIGHUP: rows in flight finish, the results so far
are printed).
Every applied row is in the audit log: members history shows the run as one entry,
members history --run RUN_ID lists its rows, and members undo RUN_ID (the id of the
run's own record, action bulk) reverses them all, a run killed with SIGKILL too.
`,
  },
  each: {
    summary: 'any command once per row of a CSV file, as one run',
    text: `members each FILE [--] COMMAND ARGS… runs a members command once per row:

  members each turma.csv --yes --out links.csv -- magic-link {E-mail} --expire-in 7d
  members each pontos.csv -- scores set {E-mail} {Pontos} --reason "contest"
  members each turma.csv --dry-run -- students grant {E-mail} "Python Pro"
  members each links.csv --only-failed --yes -- magic-link {E-mail}

{Column} is the row's cell (case, accents, spaces, - _ . ignored), {line} its line,
{{ and }} literal braces. The file is read as the bulk runs read it (, or ;, an xlsx
workbook's first sheet, - for stdin).

Every row is expanded and parsed by the command itself before anything is sent: bad rows
print "error: line N: …" and the run exits 2. A placeholder naming no column: exit 2.
--dry-run prints each command; --max-rows N refuses a bigger file; --first N runs N rows
(a canary) and stops; --halt soon|now starts no row after a failure.

One question for the run on a terminal (type the row count above 20 rows); --yes off one.
Rows run in this process, sharing one client and rate limit (--concurrency N) and one
lookup per student. Every change carries the run's id: members undo RUN reverses it.
The same command on the same file after a kill, --first or failures continues that run
(same id: one undo reverses both) and leaves out the rows done (skipped: done by run …).
Refused: each, sync, import, extend, undo, history,
report, api, auth, sandbox, completion, help, version, --file forms.

Results: line, the input's columns, result (done, skipped, failed), message, and the
command's fields (url and expire_in of a link, score). Exit 7 when a row failed.
`,
  },
  'student-keys': {
    summary: 'how a STUDENT is named: id, e-mail, CPF, phone, doc:, ref:',
    text: `Wherever a command takes a STUDENT (an argument, --student, a bulk file's student
column, members each rows, the assistant's tools), it is read as:

  maria@example.com            an e-mail (it has an @)
  doc:RG/123   ref:crm-8812    a document, a reference
  phone:61939862924            a phone, never a CPF or an id
  070.692.055-46               a CPF (the other spelling is tried too)
  +55 61 93986-2924            a phone: 10 to 13 digits written with +, parentheses,
  (61) 93986-2924              a space or a dash
  61939862924                  11 digits: a CPF (whatever its check digits: one may be
                               held mistyped), an id, then, when they are no valid CPF,
                               a phone (one that is: phone:11948852411)
  6139862924                   10, 12 or 13 digits: an id, then a phone
  anything else                an id

A phone names the one student whose phone has the same digits, the country code (55)
and a leading 0 optional. The API has no lookup by phone: the student list is read
once (as students search reads it; -v says how many requests), once per run for a
bulk file. Several students with the number: exit 2, listed; none: exit 4.
A CPF with wrong check digits that nobody has says so and offers the student with the
right ones ("Did you mean"); a mistyped e-mail offers the near ones.
`,
  },
  undo: {
    summary: 'find a change in the audit log and reverse it',
    text: `Every change members makes is recorded on this machine (the audit log in
MEMBERS_CONFIG_DIR); members history shows it, members undo reverses one change:

  members history --student maria@example.com       # any key of the student finds it
  members undo m7u0k1zq-3f9c2e4d7a01 --reason "granted by mistake"
  members undo --last --student maria@example.com   # her most recent change, shown first
  members undo --last                               # the newest entry: a whole run (a transfer…)
  members undo RUN_ID                               # every change of a bulk run, transfer,
                                                    # extension or sync, newest first

What undo does:
  grant      revokes the subscription
  renewal    revokes the renewed subscription; grants the old one again if it had access
             (also a sync's restore or expiration change, and an extension)
  revoke     grants the product again with the recorded dates (a new subscription:
             status and access are the server's defaults for a grant)
  scores set sets the previous score again
  delete     creates the student again (a new id; products, scores and progress are
             not restored: grant them again from members history -o json)
  undo       reverses the undo of a grant or a revoke

It asks first on a terminal; off one it needs --yes. Before any change it checks the
state is still the one the change left: if not, nothing is sent (exit 5; in a run,
that change is a conflict, the others are undone, exit 7). A revoke or a restore reads
the subscription once more right before it is sent (after the question): changed
meanwhile, nothing is sent (exit 5; in a run, that change is stale, exit 7).

An undo of a run takes a lease on the run's products, as the run did: when another run
(a sync, a bulk file, an extension, a transfer) holds one, it waits --wait DURATION
(default 0), then exits 10 naming the holder; nothing is sent.

Cannot be undone (exit 2): students create (delete the student), magic-link (it
expires), a change already undone, a delete whose student was then
forgotten (students delete --forget, history --forget: the person's data is gone), and
a change made on another server than the profile in force (use --profile). Exit 4: the
student no longer exists.

The flags of the command: members undo --help.
`,
  },
};
