/**
 * How the sandbox words its answers. `DEFAULT_DIALECT` is the friendliest
 * reading of api-spec.md; `laravelDialect()` is what a Laravel 8 application
 * written the usual way (`paginate()`, `cursorPaginate()`, API resources,
 * route-model binding, Eloquent date casts, `json_encode` defaults) sends.
 * Each knob is one difference, so a test can switch one on alone.
 */
export interface Dialect {
  /** `laravel8`: the cursor page has no `next_cursor`/`prev_cursor`, only the page URLs (Laravel 8's CursorPaginator::toArray). */
  cursor: 'full' | 'laravel8';
  /** `bare`: pagination links carry only `page` (or `cursor`): the server never called `withQueryString()`. */
  links: 'query' | 'bare';
  /** `simple`: `simplePaginate()`, no `last_page`/`total`/`last` link. */
  paginator: (typeof PAGINATORS)[number];
  /** `route-miss`: `%2F` is decoded before routing (Laravel's router), so a `/` in a parameter is a route miss. */
  encodedSlash: 'segment' | 'route-miss';
  /** `instants`: Eloquent casts; date-only fields become the UTC instant of midnight in `serverTz`. */
  dates: 'plain' | 'instants';
  /** IANA zone of the server (`config/app.php` timezone); used with `dates: 'instants'`. */
  serverTz: string;
  /** `integer`: subscription ids are auto-increment integers. */
  subscriptionIds: 'string' | 'integer';
  /** `string`: `meta.per_page` echoes the query string's `"10"` (the controller passed `$request->per_page` on). */
  perPage: 'number' | 'string';
  /** What the controller does with `per_page` (see PageSize). */
  pageSize: PageSize;
  /** `laravel`: the framework's exception handler with debug off (no `exception` key, "The given data was invalid."). */
  errors: 'sandbox' | 'laravel';
  /** `json_encode` without JSON_UNESCAPED_SLASHES/UNICODE: `\/` and `\u00e9`. */
  escapedJson: boolean;
  /** Status of `PUT /students/{id}/scores`: 201 when the controller uses `updateOrCreate` and returns the resource. */
  scoresStatus: 200 | 201;
}

/**
 * What a controller does with the query's `per_page`:
 * - `asked`: honours it, 1 to 100 (422 outside);
 * - `ignored`: `->paginate(15)`: every page holds `size` records whatever was asked, `per_page` is not even validated;
 * - `capped`: `->paginate(min($request->per_page, 50))`: above `max` it is clamped to `max`, without a 422.
 */
export type PageSize = { kind: 'asked' } | { kind: 'ignored'; size: number } | { kind: 'capped'; max: number };

export const DEFAULT_DIALECT: Dialect = {
  cursor: 'full',
  links: 'query',
  paginator: 'length-aware',
  encodedSlash: 'segment',
  dates: 'plain',
  serverTz: 'UTC',
  subscriptionIds: 'string',
  perPage: 'number',
  pageSize: { kind: 'asked' },
  errors: 'sandbox',
  escapedJson: false,
  scoresStatus: 200,
};

/** East of UTC by default: date-only fields then come back as the previous day at 15:00Z. */
export const LARAVEL_SERVER_TZ = 'Asia/Tokyo';

export function laravelDialect(overrides: Partial<Dialect> = {}): Dialect {
  return {
    cursor: 'laravel8',
    links: 'bare',
    paginator: 'length-aware',
    encodedSlash: 'route-miss',
    dates: 'instants',
    serverTz: LARAVEL_SERVER_TZ,
    subscriptionIds: 'integer',
    perPage: 'string',
    pageSize: { kind: 'asked' },
    errors: 'laravel',
    escapedJson: true,
    scoresStatus: 201,
    ...overrides,
  };
}

export const FLAVORS = ['default', 'laravel'] as const;
export const PAGINATORS = ['length-aware', 'simple'] as const;
export type Flavor = (typeof FLAVORS)[number];

export function dialectOf(flavor: Flavor, overrides: Partial<Dialect> = {}): Dialect {
  return flavor === 'laravel' ? laravelDialect(overrides) : { ...DEFAULT_DIALECT, ...overrides };
}

/** Throws a RangeError for a zone the runtime does not know. */
export function checkTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(zone)}: use an IANA name such as America/Sao_Paulo or Asia/Tokyo`);
  }
  return zone;
}
