/**
 * Why an attempt of the spec peer failed. `violation` marks something the other side (or the
 * server) did that the spec forbids; anything else is an ordinary failure such as a timeout or a
 * closed channel. The message ends with the steps the peer took, so a race can be read off it.
 */
export class SpecPeerError extends Error {
  override name = 'SpecPeerError';

  constructor(
    message: string,
    readonly violation: boolean,
    /** What the peer did and saw up to the failure (set once the attempt ended). */
    readonly steps: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Something the other peer or the server did against the spec. */
export function violation(message: string): SpecPeerError {
  return new SpecPeerError(`spec violation: ${message}`, true);
}

/** A failed attempt that breaks no rule by itself (a timeout, a close, a local problem). */
export function failure(message: string): SpecPeerError {
  return new SpecPeerError(message, false);
}

/** What the peer did and saw, in order, with milliseconds since it started. */
export class Trace {
  readonly steps: string[] = [];
  readonly #started = Date.now();

  constructor(readonly role: string) {}

  record(step: string): void {
    this.steps.push(`+${Date.now() - this.#started}ms ${step}`);
  }

  /** `error` with the role and the steps appended, for a test to print as is. */
  explain(error: unknown): SpecPeerError {
    const base = error instanceof SpecPeerError ? error : failure(describe(error));
    const explained = new SpecPeerError(
      `spec peer (${this.role}): ${base.message}\n  steps:\n    ${this.steps.join('\n    ')}`,
      base.violation,
      [...this.steps],
    );
    explained.stack = `${explained.name}: ${explained.message}`;
    return explained;
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The first failure of an attempt, wherever it happened: a native callback, the signaling
 * socket, a timer. Every wait of the peer races against it, so a problem seen on one path ends
 * the attempt at once instead of leaving another path waiting for its own timeout.
 */
export class Tripwire {
  #failure: SpecPeerError | undefined;
  readonly #listeners = new Set<(error: SpecPeerError) => void>();

  get failure(): SpecPeerError | undefined {
    return this.#failure;
  }

  trip(error: unknown): void {
    if (this.#failure) return;
    this.#failure = error instanceof SpecPeerError ? error : failure(describe(error));
    for (const listener of this.#listeners) listener(this.#failure);
    this.#listeners.clear();
  }

  /** Throws the failure, if there is one. */
  check(): void {
    if (this.#failure) throw this.#failure;
  }

  /** `promise`, or the failure if it comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise<T>((resolve, reject) => {
      const listener = (error: SpecPeerError): void => reject(error);
      this.#listeners.add(listener);
      promise.then(
        (value) => {
          this.#listeners.delete(listener);
          resolve(value);
        },
        (error: unknown) => {
          this.#listeners.delete(listener);
          reject(error);
        },
      );
    });
  }

  /**
   * `callback` made safe for a native or socket callback: whatever it throws trips this wire
   * instead of escaping into code that would kill the process.
   */
  guard<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        callback(...args);
      } catch (error) {
        this.trip(error);
      }
    };
  }
}

/** Resolves after `ms`; `what` names the wait in the failure a caller builds. */
export function deadline(ms: number, what: string): { promise: Promise<never>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure(`${what} did not happen within ${ms} ms`)), ms);
  });
  // A deadline nobody awaits any more must not count as an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, cancel: () => clearTimeout(timer) };
}

/** `promise`, failing with "`what` did not happen within `ms` ms" when it takes longer. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const timer = deadline(ms, what);
  try {
    return await Promise.race([promise, timer.promise]);
  } finally {
    timer.cancel();
  }
}
