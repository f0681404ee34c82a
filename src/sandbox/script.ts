/**
 * Answers scripted by a test (`POST /__sandbox/script`): the next requests
 * matching a method and a route template get a given answer — before the
 * handler ran (refused: nothing changed) or after it (`after_change`: the
 * change was made and its answer replaced) — and may be held a while first
 * (a slow answer, for a signal sent while a request is in flight). A real
 * platform refuses a grant for its own reasons (a product closed to new
 * subscriptions, a rule of the shop); this is how tests get such a refusal
 * at one chosen request. `until_released` holds the answer until the test
 * says so (`POST /__sandbox/script/release`) instead of for a time: a test
 * waits for the request to be held (`GET /__sandbox/script` counts them),
 * makes its own change, then releases it — an interleaving by events, not
 * by the clock (a desk's renewal between a sync's read and its changes).
 */
import { HttpError } from './http.js';

export interface ScriptedAnswer {
  method: string;
  /** A route template, as `GET /__sandbox/stats` counts it: `/api/v1/students/{id}/products`. */
  route: string;
  /** The answer's status and body; none: the real answer (only held). */
  status?: number;
  body?: { message: string } & Record<string, unknown>;
  /** The handler runs first, and its answer is replaced. */
  afterChange: boolean;
  /** Held this long before the answer is sent. */
  delayMs: number;
  /** How many matching requests it answers. */
  times: number;
  /** Held until released (POST /__sandbox/script/release), not for `delayMs`. */
  untilReleased: boolean;
}

export class Script {
  private answers: ScriptedAnswer[] = [];

  add(answer: ScriptedAnswer): void {
    this.answers.push(answer);
  }

  private releases: Array<() => void> = [];

  clear(): void {
    this.answers = [];
    this.release();
  }

  /** Holds the answer as scripted: until released, or `delayMs`; undefined when it is not held. */
  hold(answer: ScriptedAnswer): Promise<void> | undefined {
    if (answer.untilReleased) return new Promise((resolve) => this.releases.push(resolve));
    return answer.delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, answer.delayMs)) : undefined;
  }

  /** The requests held until released, right now. */
  get held(): number {
    return this.releases.length;
  }

  /** Lets every held request go on; how many there were. */
  release(): number {
    const released = this.releases.splice(0);
    for (const resolve of released) resolve();
    return released.length;
  }

  /** The answer for this request, used up once, if one is scripted. */
  take(method: string, route: string): ScriptedAnswer | undefined {
    const answer = this.answers.find((candidate) => candidate.method === method && candidate.route === route);
    if (answer && --answer.times === 0) this.answers.splice(this.answers.indexOf(answer), 1);
    return answer;
  }
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value === '') throw new HttpError(422, { message: `${name} must be a non-empty string.` });
  return value;
};
const count = (value: unknown, name: string, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < min) throw new HttpError(422, { message: `${name} must be an integer ≥ ${min}.` });
  return value as number;
};

/** The body of `POST /__sandbox/script`: `{method, route, status?, body?, after_change?, delay_ms?, until_released?, times?}`. */
export function scriptedAnswer(body: Record<string, unknown>): ScriptedAnswer {
  const status = body.status === undefined ? undefined : count(body.status, 'status', 0, 100);
  const given = body.body;
  if (given !== undefined && (typeof given !== 'object' || given === null || typeof (given as { message?: unknown }).message !== 'string')) {
    throw new HttpError(422, { message: 'body must be an object with a message.' });
  }
  return {
    method: text(body.method, 'method').toUpperCase(),
    route: text(body.route, 'route'),
    status,
    body: given as ScriptedAnswer['body'],
    afterChange: body.after_change === true,
    delayMs: count(body.delay_ms, 'delay_ms', 0, 0),
    times: count(body.times, 'times', 1, 1),
    untilReleased: body.until_released === true,
  };
}
