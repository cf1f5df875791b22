import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROOM_NAME,
  readRoomText,
  roomHostName,
  roomLabel,
  roomNameOf,
  roomText,
  ROOM_SERVICE,
  type RoomAdvert,
} from './room-records';

const advert: RoomAdvert = { address: '192.168.1.20', port: 3001, pv: 1, pvMin: 1 };

const text = (entries: string[]) => entries.map((entry) => Buffer.from(entry));

describe('a room as DNS-SD records', () => {
  it('reads back the URL and protocol range it was announced with', () => {
    const entries = Object.entries(roomText(advert)).map(([key, value]) => `${key}=${value}`);
    expect(readRoomText(text(entries), '192.168.1.20')).toEqual({
      url: 'http://192.168.1.20:3001',
      pv: 1,
      pvMin: 1,
    });
  });

  it('names the room and its host so that neither tells whose device it is', () => {
    expect(DEFAULT_ROOM_NAME).toBe('Ferry room');
    expect(roomHostName('192.168.1.20')).toBe('ferry-192-168-1-20');
  });

  it('fits a long name into one label, leaving room for a conflict\'s " (2)"', () => {
    const label = roomLabel(`Ferry on ${'ü'.repeat(40)}`);
    expect(Buffer.byteLength(`${label} (99)`)).toBeLessThanOrEqual(63);
    expect(label).toBe(`Ferry on ${'ü'.repeat(24)}`);
  });

  it('keeps dots out of a room name, which dns-packet would split into labels', () => {
    expect(roomLabel('Ferry on v1.2')).toBe('Ferry on v1-2');
  });

  it('falls back to the neutral name when nothing printable is left', () => {
    expect(roomLabel('\u200b\u0007 ')).toBe(DEFAULT_ROOM_NAME);
  });
});

describe('what a stranger on the network announces', () => {
  it('ignores a room whose URL points at another host than the one announcing it', () => {
    expect(readRoomText(text(['url=http://203.0.113.9:3001']), '192.168.1.20')).toBeUndefined();
  });

  it('ignores a room whose URL is not plain http', () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'https://192.168.1.20']) {
      expect(readRoomText(text([`url=${url}`]), '192.168.1.20')).toBeUndefined();
    }
  });

  it('ignores a URL carrying credentials and keeps only the origin of one carrying a path', () => {
    expect(
      readRoomText(text(['url=http://u:p@192.168.1.20:3001']), '192.168.1.20'),
    ).toBeUndefined();
    expect(readRoomText(text(['url=http://192.168.1.20:3001/x?y']), '192.168.1.20')?.url).toBe(
      'http://192.168.1.20:3001',
    );
  });

  it('ignores a malformed protocol range, and reads an absent one as version 1', () => {
    const url = 'url=http://192.168.1.20:3001';
    expect(readRoomText(text([url, 'pv=one']), '192.168.1.20')).toBeUndefined();
    expect(readRoomText(text([url, 'pv=1', 'pvMin=2']), '192.168.1.20')).toBeUndefined();
    expect(readRoomText(text([url]), '192.168.1.20')).toMatchObject({ pv: 1, pvMin: 1 });
  });

  it('believes only the first of repeated keys, whatever their case', () => {
    const data = text(['URL=http://192.168.1.20:3001', 'url=http://192.168.1.20:9999']);
    expect(readRoomText(data, '192.168.1.20')?.url).toBe('http://192.168.1.20:3001');
  });

  it('strips control and bidirectional-formatting characters from a room name', () => {
    expect(roomNameOf(`Ferry\u202e on\u0007 x.${ROOM_SERVICE}`)).toBe('Ferry on x');
  });

  it('ignores instances of other service types and nameless ones', () => {
    expect(roomNameOf('printer._ipp._tcp.local')).toBeUndefined();
    expect(roomNameOf(`\u200b.${ROOM_SERVICE}`)).toBeUndefined();
  });
});
