import { describe, expect, it } from 'vitest';
import { ConfigError } from '../signaling-server';
import { webHostOptionsFromEnv } from './env-config';

describe('web-client host configuration from the environment', () => {
  it('reads its variables, and the signaling ones only with WITH_SIGNALING', () => {
    const env = {
      PORT: '8080',
      WEB_ROOT: '/srv/ferry',
      SOCKET_URL: 'https://signal.example.org',
      COMMIT_SHA: 'b'.repeat(40),
      MAX_ACTIVE_CODES: '5',
      PRESENCE: '1',
    };
    expect(webHostOptionsFromEnv(env).options).toEqual({
      port: 8080,
      host: undefined,
      root: '/srv/ferry',
      socketUrl: 'https://signal.example.org',
      commit: 'b'.repeat(40),
    });
    expect(webHostOptionsFromEnv({ ...env, WITH_SIGNALING: '1' }).options.signaling).toMatchObject({
      maxActiveCodes: 5,
      presence: true,
    });
  });

  it('serves HTTPS only with HTTPS=1, keeping its certificate in TLS_DIR, else FERRY_HOME', () => {
    expect(webHostOptionsFromEnv({}).options.https).toBeUndefined();
    expect(webHostOptionsFromEnv({ HTTPS: '0', TLS_DIR: '/tls' }).options.https).toBeUndefined();
    expect(webHostOptionsFromEnv({ HTTPS: '1', TLS_DIR: '/tls' }).options.https).toEqual({
      certificateFolder: '/tls',
    });
    expect(webHostOptionsFromEnv({ HTTPS: 'true', FERRY_HOME: '/ferry' }).options.https).toEqual({
      certificateFolder: '/ferry',
    });
  });

  it('reports an unset commit as null', () => {
    expect(webHostOptionsFromEnv({}).options.commit).toBeNull();
  });

  it.each([
    ['COMMIT_SHA', 'abc123'],
    ['SOCKET_URL', 'signal.example.org'],
    ['WITH_SIGNALING', 'yes please'],
    ['HTTPS', 'on'],
    ['PORT', 'eighty'],
  ])('rejects %s=%s with an error naming it', (name, value) => {
    expect(() => webHostOptionsFromEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => webHostOptionsFromEnv({ [name]: value })).toThrow(name);
  });
});
