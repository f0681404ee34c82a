/**
 * Types for the undici modules that src/api/transport/http.ts and proxy.ts import directly (undici
 * types only its index): the same values as the index's exports.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/interceptor/retry.js' {
  import { interceptors } from 'undici';
  const retry: typeof interceptors.retry;
  export default retry;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** `Dispatcher.prototype.request`, which only undici's index attaches to the prototype. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}

declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  /** `Dispatcher.prototype.connect`, which only undici's index attaches to the prototype. */
  const connect: Dispatcher['connect'];
  export default connect;
}
