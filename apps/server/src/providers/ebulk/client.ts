import { HttpDisclosureClient, type HttpDisclosureOptions } from '../dbs-basic/client.js';

/** The e-bulk interface's client (same HTTP shape as the basic-disclosure service's). */
export function createEbulkClient(o: Omit<HttpDisclosureOptions, 'name'>) {
  return new HttpDisclosureClient({ ...o, name: 'ebulk' });
}
