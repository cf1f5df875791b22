import { describe, expect, it } from 'vitest';
import { ferryTimelineOf } from './cells';
import { summarizeCell, type CellRuns } from './summary';

const MIB = 1024 * 1024;

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
  const channel = (MiBps: number) => ({
    MiBps,
    bytes: MiBps * MIB,
    seconds: 1,
    sender: { cores: 1, peakRssMB: 100 },
    receiver: { cores: 1, peakRssMB: 120 },
    lineBytes: MiBps * MIB,
    receiverUdpDrops: 0,
    window: { from: 0, to: 1000 },
  });
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
    const cell = summarizeCell({
      rttMs: 0,
      lossPct: 0,
      tcp: [],
      bare: [],
      ferry: [],
      defaults: [],
      errors: [],
    });
    expect(cell.ferrySetupSeconds).toBeNull();
    expect(cell.ferrySecondHalfMiBps).toBeNull();
  });
});
