import { describe, expect, it } from 'vitest';
import type { Frame } from './frame';
import type { Surface } from './frame-classification';
import { createReceiver, type ReceiverAction, type ReceiverEvent } from './receiver';
import { createSender, type SenderAction, type SenderEvent } from './sender';
import type { PeerVersion } from './version-negotiation';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

interface BatchFile {
  id: string;
  fileName: string;
  content: string;
  /** What the sender announces, when an old or faulty sender announces something else. */
  announcedSize?: number;
}

interface Scenario {
  files: BatchFile[];
  sender?: Surface;
  receiver?: Surface;
  receiverVersion?: PeerVersion;
  answer?: 'accepted' | 'declined';
  chunkBytes?: number;
  /** The route drops after this many data frames. */
  dropAfterChunks?: number;
  /** The send-buffer level the sender's driver reports once the batch is sent (default 0). */
  bufferAfterBatch?: number;
}

type Task =
  | { to: 'sender'; event: SenderEvent }
  | { to: 'receiver'; event: ReceiverEvent }
  | { to: 'stream'; index: number; offset: number };

function showFrame(frame: Frame): string {
  return frame.kind === 'text' ? `text ${frame.text}` : `binary ${fromUtf8.decode(frame.bytes)}`;
}

function show(action: SenderAction | ReceiverAction): string {
  switch (action.type) {
    case 'send':
      return `send ${showFrame(action.frame)}`;
    case 'write':
      return `write ${action.index} ${fromUtf8.decode(action.bytes)}`;
    case 'set-timer':
      return `set-timer ${action.timer} ${action.ms}`;
    case 'clear-timer':
      return `clear-timer ${action.timer}`;
    case 'close':
      return `close ${action.flushMs}`;
    case 'fail':
      return `fail ${action.code}: ${action.message}`;
    case 'progress':
      return `progress ${action.index} ${action.fileBytes}/${action.fileSize} ${action.bytesDone}/${action.totalBytes}`;
    default: {
      const { type, ...rest } = action;
      return `${type} ${JSON.stringify(rest)}`;
    }
  }
}

/**
 * Two machines joined by an in-order channel and two drivers that do exactly what the actions
 * say: frames sent before a close still arrive (the flush), frames sent after it are lost, and
 * streaming sends one chunk per turn so replies interleave as on a real channel.
 */
function transfer(scenario: Scenario) {
  const senderSurface = scenario.sender ?? 'native';
  const receiverSurface = scenario.receiver ?? 'native';
  const chunkBytes = scenario.chunkBytes ?? 4;
  const sender = createSender({
    files: scenario.files.map((file) => ({
      id: file.id,
      fileName: file.fileName,
      fileSize: file.announcedSize ?? utf8.encode(file.content).byteLength,
    })),
    local: senderSurface === 'native' ? { pv: 1, pvMin: 1, ver: '1.6.0' } : { pv: 1, pvMin: 1 },
    surface: senderSurface,
    remedySurface: senderSurface === 'native' ? 'cli' : 'browser',
  });
  const receiver = createReceiver({
    surface: receiverSurface,
    local:
      scenario.receiverVersion ??
      (receiverSurface === 'native'
        ? { pv: 1, pvMin: 1, ver: 'desktop-v1.6.0' }
        : { pv: 1, pvMin: 1 }),
    remedySurface: receiverSurface === 'native' ? 'desktop' : 'browser',
    askBeforeAccepting: scenario.answer !== undefined,
  });

  const transcript: string[] = [];
  const parts = new Map<number, { path: string; content: string }>();
  const saved = new Map<string, string>();
  const tasks: Task[] = [];
  let open = true;
  let chunksSent = 0;

  const dropRoute = () => {
    open = false;
    tasks.push({ to: 'sender', event: { type: 'channel-closed' } });
    tasks.push({ to: 'receiver', event: { type: 'channel-closed' } });
  };

  const runSender = (action: SenderAction) => {
    transcript.push(`S ${show(action)}`);
    if (action.type === 'send' && open)
      tasks.push({ to: 'receiver', event: { type: 'frame', frame: action.frame } });
    if (action.type === 'stream-file')
      tasks.push({ to: 'stream', index: action.index, offset: action.offset });
    if (action.type === 'watch-buffer') {
      const bytes = scenario.bufferAfterBatch ?? 0;
      tasks.push({ to: 'sender', event: { type: 'buffered-amount', bytes } });
    }
    if (action.type === 'close' && open) {
      open = false;
      tasks.push({ to: 'receiver', event: { type: 'channel-closed' } });
    }
  };

  const runReceiver = (action: ReceiverAction) => {
    transcript.push(`R ${show(action)}`);
    if (action.type === 'send' && open)
      tasks.push({ to: 'sender', event: { type: 'frame', frame: action.frame } });
    if (action.type === 'ask-accept')
      tasks.push({ to: 'receiver', event: { type: scenario.answer ?? 'accepted' } });
    if (action.type === 'open-part') parts.set(action.index, { path: action.path, content: '' });
    if (action.type === 'write') {
      const part = parts.get(action.index);
      if (part) part.content += fromUtf8.decode(action.bytes);
    }
    if (action.type === 'commit') {
      const part = parts.get(action.index);
      if (part) saved.set(part.path, part.content);
      parts.delete(action.index);
    }
    if (action.type === 'discard') parts.delete(action.index);
    if (action.type === 'close' && open) {
      open = false;
      tasks.push({ to: 'sender', event: { type: 'channel-closed' } });
    }
  };

  const stream = (index: number, offset: number) => {
    // A driver stops streaming once the machine has moved on (failed, cancelled).
    if (sender.state.phase !== 'streaming' || !open) return;
    const bytes = utf8.encode(scenario.files[index]?.content ?? '');
    const chunk = bytes.subarray(offset, offset + chunkBytes);
    tasks.push({
      to: 'receiver',
      event: { type: 'frame', frame: { kind: 'binary', bytes: chunk } },
    });
    chunksSent += 1;
    if (chunksSent === scenario.dropAfterChunks) return dropRoute();
    const next = offset + chunk.byteLength;
    tasks.push(
      next < bytes.byteLength
        ? { to: 'stream', index, offset: next }
        : { to: 'sender', event: { type: 'file-streamed', index } },
    );
  };

  receiver.handle({ type: 'channel-open' }).forEach(runReceiver);
  sender.handle({ type: 'channel-open', relayed: false }).forEach(runSender);
  for (let task = tasks.shift(); task !== undefined; task = tasks.shift()) {
    if (task.to === 'sender') sender.handle(task.event).forEach(runSender);
    else if (task.to === 'receiver') receiver.handle(task.event).forEach(runReceiver);
    else stream(task.index, task.offset);
  }
  return { transcript, saved: Object.fromEntries(saved), parts: parts.size, sender, receiver };
}

const NATIVE_META = '"pv":1,"pvMin":1,"ver":"1.6.0"';
const NATIVE_ACK = '"pv":1,"pvMin":1,"ver":"desktop-v1.6.0"';

describe('per-file sequence rules 1, 2 and 5: a native batch with a nested folder and an empty file', () => {
  it('files arrive whole and in order, the empty one without a binary frame, then received', () => {
    const result = transfer({
      files: [
        { id: 'a', fileName: 'trip/readme.txt', content: 'hello world' },
        { id: 'b', fileName: 'trip/photos/beach.jpg', content: 'JPEGDATA' },
        { id: 'c', fileName: 'trip/empty.log', content: '' },
      ],
      bufferAfterBatch: 512,
    });
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"trip/readme.txt","fileSize":11,"index":1,"total":3,"totalBytes":19,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R open-part {"index":0,"path":"trip/readme.txt","fileSize":11}',
      `R send binary {"type":"ack","id":"a","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 hell',
      'R progress 0 4/11 4/19',
      'R set-timer no-progress 60000',
      'R write 0 o wo',
      'R progress 0 8/11 8/19',
      'R set-timer no-progress 60000',
      'R write 0 rld',
      'R progress 0 11/11 11/19',
      'R set-timer no-progress 60000',
      'S send text {"type":"end"}',
      `S send text {"type":"metadata","id":"b","fileName":"trip/photos/beach.jpg","fileSize":8,"index":2,"total":3,"totalBytes":19,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R commit {"index":0}',
      'R set-timer no-progress 60000',
      'R open-part {"index":1,"path":"trip/photos/beach.jpg","fileSize":8}',
      `R send binary {"type":"ack","id":"b","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":1,"offset":0}',
      'R write 1 JPEG',
      'R progress 1 4/8 15/19',
      'R set-timer no-progress 60000',
      'R write 1 DATA',
      'R progress 1 8/8 19/19',
      'R set-timer no-progress 60000',
      'S send text {"type":"end"}',
      `S send text {"type":"metadata","id":"c","fileName":"trip/empty.log","fileSize":0,"index":3,"total":3,"totalBytes":19,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R commit {"index":1}',
      'R set-timer no-progress 60000',
      'R open-part {"index":2,"path":"trip/empty.log","fileSize":0}',
      `R send binary {"type":"ack","id":"c","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S send text {"type":"end"}',
      'S set-timer delivery 60000',
      'S watch-buffer {}',
      'R commit {"index":2}',
      'R send binary {"type":"received"}',
      'R clear-timer no-progress',
      'R complete {"files":3,"bytes":19}',
      'R set-timer teardown 5000',
      'S clear-timer delivery',
      'S complete {"files":3,"bytes":19,"confirmed":true}',
      'S close 0',
      'R clear-timer teardown',
    ]);
    expect(result.saved).toEqual({
      'trip/readme.txt': 'hello world',
      'trip/photos/beach.jpg': 'JPEGDATA',
      'trip/empty.log': '',
    });
  });
});

describe('per-file sequence rule 5: a browser sender to a native receiver', () => {
  it('the receiver asks, acks as binary and sends received; the browser sender stays open for it', () => {
    const result = transfer({
      files: [
        { id: 'a', fileName: 'dir/a.txt', content: 'abcdef' },
        { id: 'b', fileName: 'b', content: '' },
      ],
      sender: 'browser',
      answer: 'accepted',
    });
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      'S send text {"type":"metadata","id":"a","fileName":"dir/a.txt","fileSize":6,"index":1,"total":2,"totalBytes":6,"pv":1,"pvMin":1}',
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R ask-accept {"offer":{"fileName":"dir/a.txt","fileSize":6,"total":2,"totalBytes":6,"sender":{"pv":1,"pvMin":1}}}',
      'R open-part {"index":0,"path":"dir/a.txt","fileSize":6}',
      `R send binary {"type":"ack","id":"a","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 abcd',
      'R progress 0 4/6 4/6',
      'R set-timer no-progress 60000',
      'R write 0 ef',
      'R progress 0 6/6 6/6',
      'R set-timer no-progress 60000',
      'S send text {"type":"end"}',
      'S send text {"type":"metadata","id":"b","fileName":"b","fileSize":0,"index":2,"total":2,"totalBytes":6,"pv":1,"pvMin":1}',
      'S set-timer ack 120000',
      'R commit {"index":0}',
      'R set-timer no-progress 60000',
      'R open-part {"index":1,"path":"b","fileSize":0}',
      `R send binary {"type":"ack","id":"b","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S send text {"type":"end"}',
      'S watch-buffer {}',
      'R commit {"index":1}',
      'R send binary {"type":"received"}',
      'R clear-timer no-progress',
      'R complete {"files":2,"bytes":6}',
      'R set-timer teardown 5000',
      'S set-timer received 10000',
      'S clear-timer received',
      'S complete {"files":2,"bytes":6,"confirmed":true}',
      'S close 0',
      'R clear-timer teardown',
    ]);
    expect(result.saved).toEqual({ 'dir/a.txt': 'abcdef', b: '' });
  });
});

describe('per-file sequence rule 5: a native sender to a browser receiver', () => {
  it('the browser acks as text, keeps no timers and sends no received; the buffer drains', () => {
    const result = transfer({
      files: [{ id: 'a', fileName: 'dir/a.txt', content: 'abcdef' }],
      receiver: 'browser',
    });
    expect(result.transcript).toEqual([
      `S send text {"type":"metadata","id":"a","fileName":"dir/a.txt","fileSize":6,"index":1,"total":1,"totalBytes":6,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R open-part {"index":0,"path":"dir/a.txt","fileSize":6}',
      'R send text {"type":"ack","id":"a","offset":0,"pv":1,"pvMin":1}',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 abcd',
      'R progress 0 4/6 4/6',
      'R write 0 ef',
      'R progress 0 6/6 6/6',
      'S send text {"type":"end"}',
      'S set-timer delivery 60000',
      'S watch-buffer {}',
      'R commit {"index":0}',
      'R complete {"files":1,"bytes":6}',
      'R set-timer teardown 5000',
      'S clear-timer delivery',
      'S complete {"files":1,"bytes":6}',
      'S close 0',
      'R clear-timer teardown',
    ]);
    expect(result.saved).toEqual({ 'dir/a.txt': 'abcdef' });
  });
});

describe('errors: bytes written differ from fileSize', () => {
  it('a short file is discarded, the sender is told with incompatible, and the batch stops', () => {
    const result = transfer({
      files: [
        { id: 'a', fileName: 'a.txt', content: 'abcdef', announcedSize: 10 },
        { id: 'b', fileName: 'b.txt', content: 'xy' },
      ],
    });
    const reason = 'a.txt was discarded: 6 of 10 bytes arrived';
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"a.txt","fileSize":10,"index":1,"total":2,"totalBytes":12,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R open-part {"index":0,"path":"a.txt","fileSize":10}',
      `R send binary {"type":"ack","id":"a","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 abcd',
      'R progress 0 4/10 4/12',
      'R set-timer no-progress 60000',
      'R write 0 ef',
      'R progress 0 6/10 6/12',
      'R set-timer no-progress 60000',
      'S send text {"type":"end"}',
      `S send text {"type":"metadata","id":"b","fileName":"b.txt","fileSize":2,"index":2,"total":2,"totalBytes":12,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R discard {"index":0,"keep":false}',
      `R send binary {"type":"incompatible","reason":"${reason}",${NATIVE_ACK}}`,
      'R clear-timer no-progress',
      `R fail ERR_SIZE_MISMATCH: ${reason}`,
      'R close 2000',
      'S clear-timer ack',
      `S fail ERR_PEER_ABORTED: ${reason}`,
      'S close 0',
    ]);
    expect(result.saved).toEqual({});
    expect(result.parts).toBe(0);
  });

  it('an overrun is caught at the crossing frame; the sender stops streaming and sends no end', () => {
    const result = transfer({
      files: [{ id: 'a', fileName: 'log.txt', content: 'abcdefghij', announcedSize: 5 }],
    });
    const reason = 'log.txt was discarded: more than the announced 5 bytes arrived';
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"log.txt","fileSize":5,"index":1,"total":1,"totalBytes":5,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R open-part {"index":0,"path":"log.txt","fileSize":5}',
      `R send binary {"type":"ack","id":"a","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 abcd',
      'R progress 0 4/5 4/5',
      'R set-timer no-progress 60000',
      'R discard {"index":0,"keep":false}',
      `R send binary {"type":"incompatible","reason":"${reason}",${NATIVE_ACK}}`,
      'R clear-timer no-progress',
      `R fail ERR_OVERRUN: ${reason}`,
      'R close 2000',
      `S fail ERR_PEER_ABORTED: ${reason}`,
      'S close 0',
    ]);
    expect(result.saved).toEqual({});
    expect(result.parts).toBe(0);
  });
});

describe('errors: version ranges do not overlap', () => {
  it('incompatible replaces the ack, no file is created, and each side shows its own remedy', () => {
    const result = transfer({
      files: [{ id: 'a', fileName: 'a.txt', content: 'abc' }],
      receiverVersion: { pv: 3, pvMin: 2, ver: 'desktop-v2.0.0' },
    });
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"a.txt","fileSize":3,"index":1,"total":1,"totalBytes":3,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R send binary {"type":"incompatible","reason":"your device (protocol 1, Ferry 1.6.0) is too old for the other device (protocols 2 to 3, Ferry desktop-v2.0.0): update Ferry on your device","pv":3,"pvMin":2,"ver":"desktop-v2.0.0"}',
      'R clear-timer first-data',
      'R fail ERR_INCOMPATIBLE_VERSION: the other device (protocol 1, Ferry 1.6.0) is too old for this device (protocols 2 to 3, Ferry desktop-v2.0.0): Ferry must be updated on the other device',
      'R close 2000',
      'S clear-timer ack',
      'S fail ERR_INCOMPATIBLE_VERSION: this device (protocol 1, Ferry 1.6.0) is too old for the other device (protocols 2 to 3, Ferry desktop-v2.0.0): update Ferry on this device with: npm install -g ferry@latest',
      'S close 0',
    ]);
    expect(result.saved).toEqual({});
  });
});

describe('per-file sequence rule 3: no cancel message exists, only a close', () => {
  it('a decline closes without sending anything and the native sender gives up at once', () => {
    const result = transfer({
      files: [{ id: 'a', fileName: 'a.txt', content: 'abc' }],
      answer: 'declined',
    });
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"a.txt","fileSize":3,"index":1,"total":1,"totalBytes":3,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R ask-accept {"offer":{"fileName":"a.txt","fileSize":3,"total":1,"totalBytes":3,"sender":{"pv":1,"pvMin":1,"ver":"1.6.0"}}}',
      'R fail ERR_DECLINED: the transfer was declined',
      'R close 0',
      'S clear-timer ack',
      'S fail ERR_PEER_CLOSED: the other device closed the connection',
    ]);
  });

  it('a close mid-file fails both sides and leaves no part file behind', () => {
    const result = transfer({
      files: [{ id: 'a', fileName: 'a.txt', content: 'abcdefghij' }],
      dropAfterChunks: 2,
    });
    expect(result.transcript).toEqual([
      'R set-timer first-data 30000',
      `S send text {"type":"metadata","id":"a","fileName":"a.txt","fileSize":10,"index":1,"total":1,"totalBytes":10,${NATIVE_META}}`,
      'S set-timer ack 120000',
      'R clear-timer first-data',
      'R open-part {"index":0,"path":"a.txt","fileSize":10}',
      `R send binary {"type":"ack","id":"a","offset":0,${NATIVE_ACK}}`,
      'R set-timer no-progress 60000',
      'S clear-timer ack',
      'S stream-file {"index":0,"offset":0}',
      'R write 0 abcd',
      'R progress 0 4/10 4/10',
      'R set-timer no-progress 60000',
      'R write 0 efgh',
      'R progress 0 8/10 8/10',
      'R set-timer no-progress 60000',
      'S fail ERR_PEER_CLOSED: the other device closed the connection',
      'R discard {"index":0,"keep":false}',
      'R clear-timer no-progress',
      'R fail ERR_PEER_CLOSED: the other device closed the connection',
    ]);
    expect(result.saved).toEqual({});
    expect(result.parts).toBe(0);
  });
});
