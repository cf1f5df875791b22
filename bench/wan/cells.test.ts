import { describe, expect, it } from 'vitest';
import { ferryTimelineOf, udpCounter } from './cells';
import { checkTargets, emptyCellRuns, summarizeCell, type CellRuns } from './summary';

const MIB = 1024 * 1024;

/** One channel run's figures, of which only the goodput matters here. */
const channel = (MiBps: number) => ({
  MiBps,
  bytes: MiBps * MIB,
  seconds: 1,
  sender: { cores: 1, peakRssMB: 100 },
  receiver: { cores: 1, peakRssMB: 120 },
  lineBytes: MiBps * MIB,
  receiverUdpDrops: 0,
  senderUdpDrops: 0,
  window: { from: 0, to: 1000 },
});

describe('a Ferry run of bench:wan, split into its setup and its second half', () => {
  const run = { bytes: 300 * MIB, window: { from: 10_000, to: 15_000 } };

  it('counts the setup to the first file data, and the second half from the midway count', () => {
    // Connected at 10 s, first data at 11 s, 100 MiB by 13 s, 300 MiB by 15 s.
    const timeline = ferryTimelineOf(run, 11_000, { at: 13_000, bytes: 100 * MIB });
    expect(timeline).toEqual({ setupSeconds: 1, secondHalfMiBps: 100 });
  });

  it('has no second half when the file arrived whole before the halfway mark', () => {
    expect(ferryTimelineOf(run, 10_500, undefined).secondHalfMiBps).toBeNull();
    expect(
      ferryTimelineOf(run, 10_500, { at: 15_000, bytes: 300 * MIB }).secondHalfMiBps,
    ).toBeNull();
  });
});

describe('a cell of bench:wan', () => {
  const ferry = (MiBps: number, setupSeconds: number, secondHalfMiBps: number | null) => ({
    ...channel(MiBps),
    setupSeconds,
    secondHalfMiBps,
  });

  it('reports the median setup and the median second half of the runs that had one', () => {
    const runs: CellRuns = {
      rttMs: 50,
      lossPct: 0,
      tcp: [],
      tcpLargeBuffers: [],
      bare: [channel(80)],
      ferry: [ferry(50, 0.7, 60), ferry(56, 0.8, null), ferry(52, 0.6, 70)],
      defaults: [],
      errors: [],
    };
    const cell = summarizeCell(runs);
    expect(cell.ferryMiBps).toBe(52);
    expect(cell.ferrySetupSeconds).toBe(0.7);
    expect(cell.ferrySecondHalfMiBps).toBe(65);
  });

  it('reports neither when no Ferry run completed', () => {
    const cell = summarizeCell(emptyCellRuns(0, 0));
    expect(cell.ferrySetupSeconds).toBeNull();
    expect(cell.ferrySecondHalfMiBps).toBeNull();
  });
});

describe("the issue's targets over the cells of bench:wan", () => {
  const ferry = (MiBps: number) => ({
    ...channel(MiBps),
    setupSeconds: 0.5,
    secondHalfMiBps: null,
  });
  const tcp = (MiBps: number) => ({ reason: 'time', bytes: MiBps * MIB, ms: 1000, MiBps });
  /** A cell's runs: one of each TCP and of the bare channel, and as many Ferry runs as given. */
  const cell = (
    rttMs: number,
    runs: {
      tcp?: number;
      largeBufferTcp?: number;
      bare?: number;
      ferry: number[];
      defaults: number[];
    },
  ) =>
    summarizeCell({
      rttMs,
      lossPct: 0,
      tcp: [tcp(runs.tcp ?? 100)],
      tcpLargeBuffers: [tcp(runs.largeBufferTcp ?? 100)],
      bare: [channel(runs.bare ?? 90)],
      ferry: runs.ferry.map(ferry),
      defaults: runs.defaults.map(ferry),
      errors: [],
    });

  it("measures Ferry against the machine's own TCP, and against large-buffer TCP apart", () => {
    const targets = checkTargets([
      cell(0, { ferry: [80], defaults: [80] }),
      cell(100, { tcp: 30, largeBufferTcp: 100, bare: 5, ferry: [50], defaults: [5] }),
    ]);
    const at100 = targets.nearTcpWithoutLoss.find((target) => target.rttMs === 100);
    expect(at100).toMatchObject({ goal: 24, pass: true });
    const stricter = targets.nearLargeBufferTcpWithoutLoss.find((target) => target.rttMs === 100);
    expect(stricter).toMatchObject({ goal: 72, pass: false });
    // Only the targets are counted: 20 and 50 ms and the loss cell were not measured.
    expect(targets.failed).toBe(0);
  });

  it('finds a cell below the defaults only when every Ferry run is slower than every run of theirs', () => {
    const [overlapping, apart] = checkTargets([
      cell(0, { ferry: [80, 80.3, 82], defaults: [79, 80.7, 81] }),
      cell(20, { ferry: [70, 71, 72], defaults: [73, 74, 75] }),
    ]).notBelowDefaults;
    expect(overlapping.pass).toBe(true);
    expect(apart.pass).toBe(false);
  });
});

describe('the UDP drop counters of a namespace', () => {
  // /proc/net/snmp as Linux 6.18 prints it (Ip, Icmp, Tcp and the rest cut).
  const snmp = [
    'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails',
    'Tcp: 1 200 120000 -1 40 20 0',
    'Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors',
    'Udp: 1149280 187 11054 1158113 11053 7 0 0 0',
    'UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors',
    'UdpLite: 0 0 0 0 5 9 0 0 0',
    '',
  ].join('\n');

  it('reads the receive and send buffer drops of UDP', () => {
    expect(udpCounter(snmp, 'RcvbufErrors')).toBe(11053);
    expect(udpCounter(snmp, 'SndbufErrors')).toBe(7);
  });

  it('reads 0 from a kernel that does not count them', () => {
    expect(udpCounter('Udp: InDatagrams NoPorts\nUdp: 4 5\n', 'SndbufErrors')).toBe(0);
  });
});
