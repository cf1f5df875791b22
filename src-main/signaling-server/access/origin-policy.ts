/**
 * The public site origins that may always call the server from a browser, next to the local
 * development web client. CLIENT_URL adds exactly one more.
 */
export const BUILT_IN_ORIGINS: readonly string[] = [
  'https://ferry.app',
  'https://www.ferry.app',
  'http://localhost:3000',
];

/**
 * The CORS allow-list of the spec, applied alike to HTTP requests and to both socket handshakes.
 * A request without an Origin header always passes: native clients send none.
 */
export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    clientUrl: string | undefined,
    /** Lets a page served by the same host call in: set when the web-client host mounts the server. */
    private readonly allowSameOrigin: boolean,
  ) {
    // Exact match only: a trailing slash or a comma-separated list matches no browser origin.
    this.allowed = new Set(clientUrl ? [...BUILT_IN_ORIGINS, clientUrl] : BUILT_IN_ORIGINS);
  }

  allows(origin: string | undefined, host?: string): boolean {
    if (origin === undefined) return true;
    if (this.allowed.has(origin)) return true;
    return (
      this.allowSameOrigin &&
      host !== undefined &&
      (origin === `http://${host}` || origin === `https://${host}`)
    );
  }
}
