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
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
