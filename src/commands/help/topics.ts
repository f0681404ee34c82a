/** `members help TOPIC`: what no single command's --help says (as `gh help environment` and `gh help exit-codes`). */
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
  MEMBERS_DEBUG=1          stack traces for errors
  MEMBERS_NO_SPINNER=1     no spinners or progress bars (screen readers), messages unchanged

Terminal and colour:
  NO_COLOR                 no colour (any non-empty value)
  FORCE_COLOR, CLICOLOR_FORCE  colour even when not a terminal (FORCE_COLOR=0 turns it off)
  CLICOLOR=0               no colour
  TERM=dumb                no colour, no spinners
  CI                       no spinners or progress bars
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
  3    authentication or authorization: no credentials, 401, 403
  4    not found (404); also products get, courses get|accesses of a PRODUCT or COURSE
       found neither as an id nor by title (ids are free text: it may be an unknown id)
  5    the server rejected the request (400, 409, 422), or the state asked for needs a change
       the command was not told to make (grant over a subscription without access: --renew)
  6    transient failure after retries: 429, 5xx, network error, timeout; also a bulk run
       whose every failed row failed for such a reason
  7    bulk run: at least one row failed (the others were applied)
  130  interrupted (Ctrl-C, SIGTERM); a bulk run prints its summary first
  141  stdout was closed by its reader (… | head); a bulk run prints its summary and
       records what it applied first
`,
  },
  formatting: {
    summary: 'output formats, --fields, CSV rules, dates and times',
    text: `Formatting the result (-o, --json, --fields, --no-header, --out):

  -o table    default; columns chosen for a support desk, fitted to the terminal
  -o json     one JSON object for one record, one array for a list (pretty on a terminal)
  -o ndjson   one JSON record per line; lists stream as pages arrive
  -o csv      RFC 4180, UTF-8, a header row (--no-header to drop it); nested objects
              flattened with dot paths (product.title); arrays as JSON text

  --fields id,email,product.title   keep these fields, in this order, in every format
  --out FILE  write to FILE atomically (mode 0600); - is stdout

CSV cells a spreadsheet would run as a formula (leading =, +, -, @, tab, CR) get a
leading ' unless they are plain numbers or phone numbers; --csv-raw writes them as they are.

Spreadsheets: --csv-dialect excel (BOM, CRLF) or excel-br (also ; and decimal commas, for
Excel and LibreOffice in Portuguese) imply -o csv; digits a spreadsheet would change
(leading zeros, 12+ digits) become ="0123", times become 2024-03-05 14:22:00 in your zone.
Set MEMBERS_CSV_DIALECT=excel-br once to make it the default of csv output.

Dates and times: json, ndjson and csv give instants as the API sends them; tables show
them in your time zone (TZ), naming the zone in the column header unless it is UTC.
Date-only fields (birth, accession_date, expiration_date) are YYYY-MM-DD in every format.
`,
  },
};
