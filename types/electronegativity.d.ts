// @doyensec/electronegativity ships no types; this is the part of its runner the scan uses.
declare module '@doyensec/electronegativity' {
  interface Level {
    value: number;
    name: string;
  }
  export interface ElectronegativityIssue {
    id: string;
    file: string;
    location: { line: number; column: number };
    severity: Level;
    confidence: Level;
    description: string;
    manualReview: boolean;
  }
  export interface RunOptions {
    input: string;
    electronVersionOverride?: string;
    isRelative?: boolean;
    excludeFromScan?: string[];
  }
  export default function run(options: RunOptions): Promise<{ issues: ElectronegativityIssue[] }>;
}
