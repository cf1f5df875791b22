import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface ProviderCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** What the stub does with the next calls: mint, fail with a status, or never answer. */
export type ProviderMood = 'mint' | 'fail' | 'hang';

const stubs = new Set<RelayProviderStub>();

afterEach(async () => {
  await Promise.all([...stubs].map((stub) => stub.close()));
  stubs.clear();
});

/**
 * A local stand-in for the relay provider's generate-ice-servers API (the real one is a paid
 * public service): each successful call mints credentials numbered by call.
 */
export class RelayProviderStub {
  readonly calls: ProviderCall[] = [];
  mood: ProviderMood = 'mint';
  private minted = 0;
  private readonly hanging: ServerResponse[] = [];

  private readonly server = createServer((request, response) => this.handle(request, response));

  private constructor(private readonly iceServers: (n: number) => unknown) {}

  static async start(
    iceServers: (n: number) => unknown = RelayProviderStub.cloudflareList,
  ): Promise<RelayProviderStub> {
    const stub = new RelayProviderStub(iceServers);
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    stubs.add(stub);
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The list Cloudflare's API returns, credentials numbered by call. */
  static cloudflareList(n: number): unknown {
    return [
      { urls: ['stun:stun.cloudflare.com:3478', 'stun:stun.cloudflare.com:53'] },
      {
        urls: [
          'turn:turn.cloudflare.com:3478?transport=udp',
          'turn:turn.cloudflare.com:3478?transport=tcp',
          'turns:turn.cloudflare.com:5349?transport=tcp',
          'turn:turn.cloudflare.com:53?transport=udp',
          'turn:turn.cloudflare.com:80?transport=tcp',
          'turns:turn.cloudflare.com:443?transport=tcp',
        ],
        username: `user-${n}`,
        credential: `secret-${n}`,
      },
    ];
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      this.calls.push({
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization,
        body: text === '' ? undefined : JSON.parse(text),
      });
      if (this.mood === 'hang') {
        this.hanging.push(response);
        return;
      }
      if (this.mood === 'fail') {
        response.writeHead(502, { 'content-type': 'application/json' }).end('{"success":false}');
        return;
      }
      this.minted += 1;
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ iceServers: this.iceServers(this.minted) }));
    });
  }
}
