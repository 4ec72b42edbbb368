/** The part of autocannon's API the benchmarks use (the package ships no types). */
export namespace autocannon {
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    headers?: Record<string, string>;
    requests?: Array<{ setupRequest?: (req: Record<string, unknown>) => Record<string, unknown> }>;
  }
  export interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p90: number; p99: number; max: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '3xx': number;
  }
}
export const runAutocannon = require('autocannon') as (opts: autocannon.Options, done: (err: Error | null, result: autocannon.Result) => void) => unknown;
