import type { ProgressOutput } from './progress-view';

/** Where the command line reads and writes; tests and the real process supply their own. */
export interface CliIo {
  out: ProgressOutput;
  /** One line to standard error. */
  error(line: string): void;
  /** Asks a question on the terminal (or reads a line from a pipe); null when input ended. */
  ask(question: string): Promise<string | null>;
  /** Reads standard input to its end, as UTF-8 (`ferry send --text -`). */
  readInput?(): Promise<string>;
  /** Runs `onInterrupt` on Ctrl-C until the returned function is called. */
  onInterrupt(onInterrupt: () => void): () => void;
}
