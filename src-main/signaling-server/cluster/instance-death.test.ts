import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterEach, expect, it } from 'vitest';
import { describeNeeding } from '../../../test-support/vitest-tools';
import { join, nextEvent } from '../test-support/any-peer';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { RedisProcess } from '../test-support/redis-process';
import { ServerProcess, SIGNALING_SERVER_MAIN } from '../test-support/server-process';
import { startTestServer, stopTestServer, type TestServer } from '../test-support/test-server';
import { within } from '../test-support/within';
import { SEAT_RELEASE_MAX_MS } from '../../../src-shared/signaling/cluster-timing';

// A survivor's sweep runs on its own timer: allow for a late tick on a busy machine.
const SCHEDULING_SLACK_MS = 3000;

let redis: RedisProcess | undefined;
let doomed: ServerProcess | undefined;
let survivor: TestServer | undefined;

afterEach(async () => {
  await doomed?.stop('SIGKILL');
  if (survivor !== undefined) await stopTestServer(survivor);
  await redis?.stop();
  [doomed, survivor, redis] = [undefined, undefined, undefined];
});

describeNeeding('redis', 'a server of the cluster that dies', () => {
  it(`has its peers' seats freed by a survivor within ${SEAT_RELEASE_MAX_MS / 1000} s, and the peers left behind told`, async () => {
    redis = await RedisProcess.start();
    doomed = await ServerProcess.start(SIGNALING_SERVER_MAIN, { REDIS_URL: redis.url });
    survivor = await startTestServer({ redisUrl: redis.url });

    const split = randomUUID();
    const sender = await SocketIoPeer.connect(survivor.url);
    expect(await join(sender, split)).toEqual({ type: 'room-joined', role: 'sender' });
    const lost = await WsPeer.connect(doomed.url);
    expect(await join(lost, split)).toEqual({ type: 'room-joined', role: 'receiver' });
    await nextEvent(sender);

    // A room whose two peers both sat on the dead server must open up again too.
    const whole = randomUUID();
    for (const transport of [WsPeer, SocketIoPeer]) {
      await join(await transport.connect(doomed.url), whole);
    }

    const killedAt = performance.now();
    await doomed.stop('SIGKILL');
    expect(
      await within(
        SEAT_RELEASE_MAX_MS + SCHEDULING_SLACK_MS,
        'peer-disconnected',
        nextEvent(sender),
      ),
    ).toEqual({ type: 'peer-disconnected' });
    expect(performance.now() - killedAt).toBeLessThan(SEAT_RELEASE_MAX_MS + SCHEDULING_SLACK_MS);

    const newcomer = await WsPeer.connect(survivor.url);
    expect(await newcomer.join(split)).toEqual({ type: 'room-joined', role: 'receiver' });
    expect(await nextEvent(sender)).toEqual({ type: 'user-connected', id: expect.any(String) });
    const pair = [await WsPeer.connect(survivor.url), await SocketIoPeer.connect(survivor.url)];
    expect(await join(pair[0], whole)).toEqual({ type: 'room-joined', role: 'sender' });
    expect(await join(pair[1], whole)).toEqual({ type: 'room-joined', role: 'receiver' });
  });
});
