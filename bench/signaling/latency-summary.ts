export interface LatencySummary {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export function summarizeLatencies(latenciesMs: number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const at = (quantile: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? 0;
  return {
    samples: sorted.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
  };
}
