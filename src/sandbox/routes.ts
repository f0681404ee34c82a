import { listCourseAccesses, getCourse, listCourses } from './handlers/courses.js';
import { getProduct, listProducts } from './handlers/products.js';
import { engagedCoursesReport } from './handlers/report.js';
import { getStudentProduct, grantProduct, listStudentProducts, revokeProduct } from './handlers/student-products.js';
import { createStudent, deleteStudent, getScores, getStudentBy, listStudents, magicLinkBy, putScores } from './handlers/students.js';
import { getSubscription, listSubscriptions } from './handlers/subscriptions.js';
import { HttpError, jsonBody, NO_CONTENT, type Reply, type RequestContext } from './http.js';
import type { RequestStats } from './stats.js';
import { scriptedAnswer, type Script } from './script.js';

/** Who may call a route: the API token, the report's path tokens, or the API token on a sandbox-only route. */
export type Access = 'api' | 'report' | 'introspection';

export interface Route {
  readonly method: string;
  /** `/api/v1/students/{id}`; also the key of the request statistics. */
  readonly template: string;
  readonly access: Access;
  readonly handle: (ctx: RequestContext) => Reply;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: ReadonlyMap<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path' };

const V1 = '/api/v1';

/** What the sandbox-only routes look at and change. */
export interface SandboxControl {
  stats: RequestStats;
  /** `php artisan down`: every API request is answered 503 until it is false again. */
  maintenance: { down: boolean };
  /** Answers scripted by a test for chosen requests (script.ts). */
  script: Script;
}

export function buildRoutes({ stats, maintenance, script }: SandboxControl): Route[] {
  const api = (method: string, path: string, handle: Route['handle']): Route => ({ method, template: V1 + path, access: 'api', handle });
  return [
    api('GET', '/students', listStudents),
    api('POST', '/students', createStudent),
    api('GET', '/students/document/{document}', getStudentBy('document')),
    api('GET', '/students/email/{email}', getStudentBy('email')),
    api('POST', '/students/email/{email}/magic-link', magicLinkBy('email')),
    api('GET', '/students/reference/{reference_id}', getStudentBy('reference')),
    api('GET', '/students/{id}', getStudentBy('id')),
    api('DELETE', '/students/{id}', deleteStudent),
    api('POST', '/students/{id}/magic-link', magicLinkBy('id')),
    api('GET', '/students/{id}/products', listStudentProducts),
    api('POST', '/students/{id}/products', grantProduct),
    api('GET', '/students/{id}/products/{product_id}', getStudentProduct),
    api('DELETE', '/students/{id}/products/{product_id}', revokeProduct),
    api('GET', '/students/{id}/scores', getScores),
    api('PUT', '/students/{id}/scores', putScores),
    api('GET', '/courses', listCourses),
    api('GET', '/courses/{id}', getCourse),
    api('GET', '/courses/{id}/accesses', listCourseAccesses),
    api('GET', '/products', listProducts),
    api('GET', '/products/{id}', getProduct),
    api('GET', '/subscriptions', listSubscriptions),
    api('GET', '/subscriptions/{id}', getSubscription),
    {
      method: 'GET',
      template: '/api/partners/reports/engaged-courses/{developer_token}/{platform_token}',
      access: 'report',
      handle: engagedCoursesReport,
    },
    { method: 'GET', template: '/__sandbox/stats', access: 'introspection', handle: () => ({ status: 200, body: stats.toJSON() }) },
    {
      method: 'POST',
      template: '/__sandbox/stats/reset',
      access: 'introspection',
      handle: () => {
        stats.reset();
        return NO_CONTENT;
      },
    },
    {
      method: 'PUT',
      template: '/__sandbox/maintenance',
      access: 'introspection',
      handle: (ctx) => {
        const { down } = jsonBody(ctx);
        if (typeof down !== 'boolean') throw new HttpError(422, { message: 'Send {"down": true} or {"down": false}.' });
        maintenance.down = down;
        return NO_CONTENT;
      },
    },
    {
      method: 'POST',
      template: '/__sandbox/script',
      access: 'introspection',
      handle: (ctx) => {
        script.add(scriptedAnswer(jsonBody(ctx)));
        return NO_CONTENT;
      },
    },
    { method: 'GET', template: '/__sandbox/script', access: 'introspection', handle: () => ({ status: 200, body: { held: script.held } }) },
    {
      method: 'POST',
      template: '/__sandbox/script/release',
      access: 'introspection',
      handle: () => ({ status: 200, body: { released: script.release() } }),
    },
    {
      method: 'DELETE',
      template: '/__sandbox/script',
      access: 'introspection',
      handle: () => {
        script.clear();
        return NO_CONTENT;
      },
    },
  ];
}

interface CompiledRoute {
  route: Route;
  /** Literal segments, or null where the template has a parameter. */
  literals: (string | null)[];
  names: (string | null)[];
}

/**
 * Matches decoded path segments against route templates. Where templates
 * overlap (`/students/email/{email}` and `/students/{id}/…`), the literal
 * segment wins at the first position where they differ.
 */
export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();

  /**
   * `decodeFirst`: decode the whole path, then split it, as Laravel's router
   * matches `rawurldecode($path)`: an encoded `/` then separates segments.
   */
  constructor(routes: readonly Route[], private readonly decodeFirst = false) {
    const compiled = routes.map((route): CompiledRoute => {
      const segments = route.template.split('/').slice(1);
      const names = segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : null));
      return { route, literals: segments.map((segment, index) => (names[index] === null ? segment : null)), names };
    });
    const shape = (entry: CompiledRoute): string => entry.literals.map((literal) => (literal === null ? 'P' : 'L')).join('');
    compiled.sort((a, b) => (shape(a) < shape(b) ? -1 : shape(a) > shape(b) ? 1 : 0));
    for (const entry of compiled) {
      const sameLength = this.byLength.get(entry.literals.length);
      if (sameLength) sameLength.push(entry);
      else this.byLength.set(entry.literals.length, [entry]);
    }
  }

  /** `path` is the raw request path, still percent-encoded. */
  match(method: string, path: string): RouteMatch {
    const segments = decodeSegments(path, this.decodeFirst);
    if (!segments) return { kind: 'bad-path' };
    const allowed: string[] = [];
    for (const entry of this.byLength.get(segments.length) ?? []) {
      if (!entry.literals.every((literal, index) => literal === null || literal === segments[index])) continue;
      const { route } = entry;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
        const params = new Map<string, string>();
        entry.names.forEach((name, index) => {
          if (name !== null) params.set(name, segments[index] ?? '');
        });
        return { kind: 'found', route, params };
      }
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

/**
 * Splits the raw path first and then decodes each segment, so `RG%2F123`
 * stays one segment (unless `decodeFirst`). Undefined when the path is not
 * valid percent-encoding.
 */
function decodeSegments(path: string, decodeFirst: boolean): string[] | undefined {
  try {
    const segments = (decodeFirst ? decodeURIComponent(path) : path).split('/').slice(1);
    // A trailing slash names the same resource.
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    return decodeFirst ? segments : segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
