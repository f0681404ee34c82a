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
  /** What table.ts may do to it on a narrow terminal, when its path alone would say otherwise (a reason that must stay). */
  kind?: 'identifier' | 'low' | 'text';
}

/** How a resource looks in `table` mode; each command defines its own. */
export interface View {
  /** Plural, for the stderr notice `No students found`. */
  noun: string;
  /** The default table columns, chosen for a support desk. */
  columns: Column[];
  /**
   * Table mode only, one record only, and not with --fields: replaces the
   * key/value list entirely (magic-link prints the URL alone, course get a tree).
   * Returns the text without its final newline.
   */
  renderTable?: (record: JsonRecord) => string;
}
