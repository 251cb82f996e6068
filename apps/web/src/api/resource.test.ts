import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../lib/notify';
import { mockFetch } from '../test/fetch-mock';
import { archivableOptions, cases } from './cases';
import { customerChoices } from './customers';
import { flags } from './flags';
import { processes } from './processes';
import { duplicatesOptions, subjectPartOptions, subjects } from './subjects';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('resource query keys', () => {
  it('come from one factory per resource, all under the resource path', () => {
    const keys = [
      cases.listOptions({ page: 2 }).queryKey,
      cases.itemOptions(4).queryKey,
      archivableOptions(4).queryKey,
      subjects.itemOptions(7).queryKey,
      duplicatesOptions(null).queryKey,
      subjectPartOptions(7, 'consents').queryKey,
    ];
    expect(keys).toEqual([
      ['/api/cases/', 'list', { page: 2 }],
      ['/api/cases/', 'item', '4'],
      ['/api/cases/', 'archivable', '4'],
      ['/api/subjects/', 'item', '7'],
      ['/api/subjects/', 'duplicates', '/api/subjects/duplicates/'],
      ['/api/subjects/', 'part', 7, 'consents'],
    ]);
    // One item key whatever form the id takes: a screen with '7' from the URL and one with 7
    // from a row share one cache entry of one type.
    expect(subjects.itemOptions('7', { quiet: true }).queryKey).toEqual(
      subjects.itemOptions(7).queryKey,
    );
    expect(flags.keys.all).toEqual(['/api/flags/']);
    expect(processes.keys.list({ page_size: 100 })).toEqual([
      '/api/processes/',
      'list',
      { page_size: 100 },
    ]);
  });

  it('shares one customer list between the picker and the ops filters', () => {
    expect(customerChoices().queryKey).toEqual(customerChoices().queryKey);
  });

  it('retrieves quietly when asked: no toast, the query fails', async () => {
    mockFetch(() => ({ status: 500, body: { detail: 'Server error.' } }));
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(client.fetchQuery(subjects.itemOptions(9, { quiet: true }))).rejects.toThrow();
    expect(error).not.toHaveBeenCalled();
    await expect(client.fetchQuery(subjects.itemOptions(9))).rejects.toThrow();
    expect(error).toHaveBeenCalledTimes(1);
  });
});
