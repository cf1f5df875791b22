/** Where a server writes its own output: one line per call. */
export interface LogSink {
  info(line: string): void;
  error(line: string): void;
}

export const consoleLogSink: LogSink = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};
