import { describe, expect, it } from 'vitest';
import { refusalToStart } from './one-transfer-rule';

describe('one transfer at a time', () => {
  it('lets a send or receive start when no transfer is running', () => {
    expect(refusalToStart(false)).toBeUndefined();
  });

  it('refuses a second transfer while one is running, with ERR_BUSY and what to do', () => {
    expect(refusalToStart(true)).toEqual({
      code: 'ERR_BUSY',
      message: 'A transfer is already running; finish or cancel it first.',
    });
  });
});
