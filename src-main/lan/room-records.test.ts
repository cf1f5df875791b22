import { describe, expect, it } from 'vitest';
import {
  answerQuestions,
  defaultRoomName,
  readRoomText,
  roomLabel,
  roomNameOf,
  roomRecords,
  ROOM_SERVICE,
  type RoomAdvert,
} from './room-records';

const advert: RoomAdvert = {
  name: 'Ferry on studio',
  address: '192.168.1.20',
  port: 3001,
  pv: 1,
  pvMin: 1,
};

const text = (entries: string[]) => entries.map((entry) => Buffer.from(entry));

describe('a room as DNS-SD records', () => {
  it('reads back the URL and protocol range it was announced with', () => {
    const records = roomRecords(advert);
    expect(records.text.name).toBe(`Ferry on studio.${ROOM_SERVICE}`);
    expect(readRoomText(records.text.data, '192.168.1.20')).toEqual({
      url: 'http://192.168.1.20:3001',
      pv: 1,
      pvMin: 1,
    });
  });

  it('says goodbye with the same records at lifetime zero', () => {
    const goodbye = roomRecords(advert, 0);
    expect(Object.values(goodbye).map((record) => record.ttl)).toEqual([0, 0, 0, 0, 0]);
    expect(goodbye.pointer.data).toBe(roomRecords(advert).pointer.data);
  });

  it('names the room "Ferry on" the first label of the host name', () => {
    expect(defaultRoomName('mbp.local')).toBe('Ferry on mbp');
    expect(defaultRoomName('desk')).toBe('Ferry on desk');
  });

  it('fits a long name into one 63-byte label without splitting a character', () => {
    const label = roomLabel(`Ferry on ${'ü'.repeat(40)}`);
    expect(Buffer.byteLength(label)).toBeLessThanOrEqual(63);
    expect(label).toBe(`Ferry on ${'ü'.repeat(27)}`);
  });

  it('keeps dots out of a room name, which dns-packet would split into labels', () => {
    expect(roomLabel('Ferry on v1.2')).toBe('Ferry on v1-2');
  });
});

describe('answering queries', () => {
  const records = roomRecords(advert);

  it('answers a browse for the service with the pointer and the records needed to join', () => {
    const response = answerQuestions([{ name: '_FERRY._tcp.local', type: 'PTR' }], records);
    expect(response?.answers).toEqual([records.pointer]);
    expect(response?.additionals).toEqual([records.service, records.text, records.host]);
  });

  it('answers a direct question for the instance without repeating answers as additionals', () => {
    const response = answerQuestions([{ name: records.text.name, type: 'ANY' }], records);
    expect(response?.answers).toEqual([records.service, records.text]);
    expect(response?.additionals).toEqual([records.host]);
  });

  it('lists the service type for a service-type enumeration', () => {
    const response = answerQuestions(
      [{ name: '_services._dns-sd._udp.local', type: 'PTR' }],
      records,
    );
    expect(response?.answers).toEqual([records.enumeration]);
  });

  it('stays silent about other services and other record types', () => {
    expect(answerQuestions([{ name: '_http._tcp.local', type: 'PTR' }], records)).toBeUndefined();
    expect(answerQuestions([{ name: ROOM_SERVICE, type: 'AAAA' }], records)).toBeUndefined();
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
