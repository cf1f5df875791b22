import { describe, expect, it } from 'vitest';
import { signalingOptionsFromEnv } from './env-config';
import { ConfigError } from './env-values';

describe('configuration from the environment', () => {
  it('reads every variable', () => {
    expect(
      signalingOptionsFromEnv({
        PORT: '4000',
        HOST: '127.0.0.1',
        CLIENT_URL: 'https://files.example.org',
        TRUSTED_PROXY_COUNT: '1',
        MAX_CONNECTIONS_PER_IP: '31',
        MAX_TURN_REQUESTS_PER_IP: '21',
        MAX_CODE_REQUESTS_PER_IP: '61',
        MAX_FAILED_CODE_LOOKUPS: '50',
        MAX_REPORT_BYTES: '1000',
        MAX_ACTIVE_CODES: '10',
        REDIS_URL: 'redis://127.0.0.1:6379/2',
        TURN_SECRET: 's',
        TURN_DOMAIN: 'turn.example.org',
        TURN_PROVIDER_KEY_ID: 'k',
        TURN_PROVIDER_API_TOKEN: 't',
        TURN_PROVIDER_URL: 'https://rtc.example.com',
        PRESENCE: '1',
      }),
    ).toEqual({
      options: {
        port: 4000,
        host: '127.0.0.1',
        clientUrl: 'https://files.example.org',
        trustedProxyCount: 1,
        maxConnectionsPerIp: 31,
        maxTurnRequestsPerIp: 21,
        maxCodeRequestsPerIp: 61,
        maxFailedCodeLookups: 50,
        maxReportBytes: 1000,
        maxActiveCodes: 10,
        redisUrl: 'redis://127.0.0.1:6379/2',
        turnSecret: 's',
        turnDomain: 'turn.example.org',
        turnProviderKeyId: 'k',
        turnProviderApiToken: 't',
        turnProviderUrl: 'https://rtc.example.com',
        presence: true,
      },
      warnings: [],
    });
  });

  it('leaves unset and empty variables to the defaults', () => {
    const { options } = signalingOptionsFromEnv({ PORT: '', MAX_ACTIVE_CODES: '  ' });
    expect(Object.values(options).every((value) => value === undefined)).toBe(true);
  });

  it.each([
    ['PORT', 'http'],
    ['PORT', '65536'],
    ['MAX_CONNECTIONS_PER_IP', '0'],
    ['MAX_TURN_REQUESTS_PER_IP', '1.5'],
    ['MAX_CODE_REQUESTS_PER_IP', '1e3'],
    ['MAX_FAILED_CODE_LOOKUPS', '0'],
    ['MAX_REPORT_BYTES', '-1'],
    ['MAX_ACTIVE_CODES', 'lots'],
    ['TRUSTED_PROXY_COUNT', 'yes'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['TURN_PROVIDER_URL', 'not a url'],
    ['PRESENCE', 'yes'],
  ])('rejects %s=%s with an error naming it', (name, value) => {
    expect(() => signalingOptionsFromEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => signalingOptionsFromEnv({ [name]: value })).toThrow(name);
  });

  it('warns about settings that start but do nothing', () => {
    const { warnings } = signalingOptionsFromEnv({
      TURN_SECRET: 's',
      TURN_PROVIDER_API_TOKEN: 't',
      CLIENT_URL: 'https://a.example.org,https://b.example.org',
    });
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/TURN_DOMAIN[\s\S]*TURN_PROVIDER_KEY_ID[\s\S]*CLIENT_URL/);
  });
});
