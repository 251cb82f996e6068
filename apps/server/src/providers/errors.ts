/** A provider call that failed: `retryable` for outages and timeouts, not for a refusal. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A promise rejected with a retryable ProviderError when `signal` aborts (a timeout). */
export function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new ProviderError('The provider did not answer in time.', true));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
