/** One record as the API sends it (the `data` envelope already removed). */
export type JsonRecord = Record<string, unknown>;

/** How a value looks in a table; csv and json always carry the raw value. */
export type CellFormat = 'date' | 'datetime' | 'bool01' | ((value: unknown, record: JsonRecord) => string);

export interface Column {
  header: string;
  /** Dot path into the record, e.g. `product.title`. */
  path: string;
  format?: CellFormat;
  /**
   * On a narrow terminal, may be dropped once the low-value columns are gone
   * (table.ts), though whole otherwise: an id beside the title it repeats.
   * `later`: after those (a column that names what the row is about, when an id beside it matters more).
   * `last`: only when the table cannot fit even with its other columns cut to their narrowest (an audit id: the thing to copy).
   */
  dropLate?: boolean | 'later' | 'last';
  /**
   * What table.ts may do to it on a narrow terminal, when its path alone would say otherwise (a reason that must stay).
   * `name`: a person or product named for the eye (its id is in -o json), cut first, before the columns that say what happens.
   */
  kind?: 'identifier' | 'low' | 'text' | 'name';
  /** Never cut on a narrow terminal, like a date: a value that says nothing once cut (`2025-07-17 → 2027-03-31`, a result). */
  whole?: boolean;
  /** Cut on a narrow terminal, its cells wrap onto more lines rather than end in `…` (a note, a message: read whole or not at all). */
  wrap?: boolean;
  /**
   * Table mode only: the value drawn as a bar of value / `max` (output/bar.ts), as wide as the terminal leaves
   * room for; csv, json and xlsx carry the value itself.
   */
  bar?: { max: number };
}

/** How a resource looks in `table` mode; each command defines its own. */
export interface View {
  /** Plural, for the stderr notice `No students found`. */
  noun: string;
  /** No `No <noun> found` notice for an empty list: the command says it in its own words (a sync plan: `Nothing to change.`). */
  quietWhenEmpty?: boolean;
  /** The default table columns, chosen for a support desk. */
  columns: Column[];
  /**
   * Table mode only, one record only, and not with --fields: replaces the
   * key/value list entirely (magic-link prints the URL alone, course get a tree).
   * Returns the text without its final newline.
   */
  renderTable?: (record: JsonRecord) => string;
}
