import { isDateShaped, parseDay } from './dates.js';
import { HttpError } from './http.js';

type Source = 'body' | 'query';

/**
 * Collects field errors the way Laravel's validator reports them, then
 * `check()` throws one 422 carrying all of them. Getters return null for an
 * absent or invalid optional value (a placeholder for a required one);
 * callers use the values only after `check()`.
 */
export class Validator {
  private readonly errors: Record<string, string[]> = {};

  constructor(
    private readonly input: Readonly<Record<string, unknown>>,
    private readonly source: Source = 'body',
  ) {}

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  failed(field: string): boolean {
    return field in this.errors;
  }

  string(field: string, required: true): string;
  string(field: string, required: boolean): string | null;
  string(field: string, required: boolean): string | null {
    const value = this.value(field, required);
    if (value === null) return this.placeholder(required, '');
    if (typeof value !== 'string') return this.reject(field, `The ${label(field)} field must be a string.`, required, '');
    if (value.length > 255) return this.reject(field, `The ${label(field)} field must not be greater than 255 characters.`, required, '');
    return value;
  }

  /** A real calendar date written `YYYY-MM-DD`. */
  date(field: string, required: true): string;
  date(field: string, required: false): string | null;
  date(field: string, required: boolean): string | null {
    const value = this.string(field, required);
    if (value === null || this.failed(field)) return this.placeholder(required, '');
    if (!isDateShaped(value)) return this.reject(field, `The ${label(field)} field must match the format Y-m-d.`, required, '');
    if (parseDay(value) === undefined) return this.reject(field, `The ${label(field)} field must be a valid date.`, required, '');
    return value;
  }

  /** A JSON integer in a body; digits in a query string. */
  integer(field: string, required: true, min: number, max: number): number;
  integer(field: string, required: false, min: number, max: number): number | null;
  integer(field: string, required: boolean, min: number, max: number): number | null {
    const value = this.value(field, required);
    if (value === null) return this.placeholder(required, min);
    const number = this.source === 'query' && typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number)) return this.reject(field, `The ${label(field)} field must be an integer.`, required, min);
    if (number < min || number > max) {
      const rule = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
      return this.reject(field, `The ${label(field)} field must be ${rule}.`, required, min);
    }
    return number;
  }

  check(): void {
    const messages = Object.values(this.errors).flat();
    const first = messages[0];
    if (first === undefined) return;
    const more = messages.length - 1;
    const message = more === 0 ? first : `${first} (and ${more} more error${more === 1 ? '' : 's'})`;
    throw new HttpError(422, { message, errors: this.errors });
  }

  /** The value, or null when absent; empty strings count as absent (Laravel's ConvertEmptyStringsToNull). */
  private value(field: string, required: boolean): unknown {
    const value = this.input[field];
    if (value === undefined || value === null || value === '') {
      if (required) this.fail(field, `The ${label(field)} field is required.`);
      return null;
    }
    return value;
  }

  private reject<T>(field: string, message: string, required: boolean, placeholder: T): T | null {
    this.fail(field, message);
    return this.placeholder(required, placeholder);
  }

  /** A required getter returns a placeholder instead of null, so call sites need no checks after `check()`. */
  private placeholder<T>(required: boolean, placeholder: T): T | null {
    return required ? placeholder : null;
  }
}

/** `accession_date` → `accession date`, as Laravel names fields in messages. */
export function label(field: string): string {
  return field.replaceAll('_', ' ');
}

export function unprocessable(field: string, message: string): HttpError {
  return new HttpError(422, { message, errors: { [field]: [message] } });
}
