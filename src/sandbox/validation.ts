import { isDateShaped, parseDay } from './dates.js';
import { HttpError } from './http.js';

type Source = 'body' | 'query';

/**
 * Collects field errors the way Laravel's validator reports them, then
 * `check()` throws one 422 carrying all of them. Getters return null for an
 * absent or invalid value; callers use the values only after `check()`.
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

  string(field: string, required: boolean): string | null {
    const value = this.value(field, required);
    if (value === null) return null;
    if (typeof value !== 'string') return this.reject(field, `The ${label(field)} field must be a string.`);
    if (value.length > 255) return this.reject(field, `The ${label(field)} field must not be greater than 255 characters.`);
    return value;
  }

  /** A real calendar date written `YYYY-MM-DD`. */
  date(field: string, required: boolean): string | null {
    const value = this.string(field, required);
    if (value === null) return null;
    if (!isDateShaped(value)) return this.reject(field, `The ${label(field)} field must match the format Y-m-d.`);
    if (parseDay(value) === undefined) return this.reject(field, `The ${label(field)} field must be a valid date.`);
    return value;
  }

  /** A JSON integer in a body; digits in a query string. */
  integer(field: string, required: boolean, min: number, max: number): number | null {
    const value = this.value(field, required);
    if (value === null) return null;
    const number = this.source === 'query' && typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number)) return this.reject(field, `The ${label(field)} field must be an integer.`);
    if (number < min || number > max) {
      return this.reject(field, max === Number.MAX_SAFE_INTEGER ? `The ${label(field)} field must be at least ${min}.` : `The ${label(field)} field must be between ${min} and ${max}.`);
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

  private reject(field: string, message: string): null {
    this.fail(field, message);
    return null;
  }
}

/** `accession_date` → `accession date`, as Laravel names fields in messages. */
export function label(field: string): string {
  return field.replaceAll('_', ' ');
}

export function unprocessable(field: string, message: string): HttpError {
  return new HttpError(422, { message, errors: { [field]: [message] } });
}
