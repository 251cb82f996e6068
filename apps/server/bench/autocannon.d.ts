// The parts of autocannon 9 that the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Client {
    setHeaders(headers: Record<string, string>): void;
    setRequests(
      requests: { method: string; path: string; headers?: Record<string, string> }[],
    ): void;
  }
  interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    headers?: Record<string, string>;
    setupClient?: (client: Client) => void;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** The run itself (the callback form): each response as it comes, and `stop()`. */
  export interface Instance {
    on(
      event: 'response',
      listener: (client: Client, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): void;
    stop(): void;
  }
  function autocannon(options: Options): Promise<Result>;
  function autocannon(
    options: Options,
    done: (err: Error | null, result: Result) => void,
  ): Instance;
  export default autocannon;
}
