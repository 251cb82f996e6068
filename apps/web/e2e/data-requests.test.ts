import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { newWorld, type World } from './fixtures';
import { launch, lookAtWidths, lookLightAndDark, screenshotDir, settle } from './helpers';

// Subject access and erasure (issue 34): a subject downloads everything held about them from
// their profile (the ZIP's contents checked), and a customer records an erasure request for a
// subject and carries it out.

const shots = join(screenshotDir, 'data-requests');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let world: World;

/** The files of a ZIP, by path. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  browser = await launch();
  world = await newWorld({
    subjects: [
      { key: 'subject', firstName: 'Pat', lastName: 'Archive' },
      { key: 'erin', firstName: 'Erin', lastName: 'Erase' },
    ],
    withCase: ['basic-details', 'address-history'],
    withCaseData: true,
  });
}, 300_000);
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('subject access and erasure', () => {
  it('a subject downloads their data archive from their profile', async () => {
    const { page } = await world.signedIn(browser, 'subject');
    await page.goto('/s/profile');
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download your data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kestrel-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const path = await download.path();
    const files = await unzip(readFileSync(path));
    expect([...files.keys()]).toEqual(expect.arrayContaining(['data.json', 'summary.txt']));
    const json = JSON.parse(String(files.get('data.json'))) as {
      records: {
        customer: { name: string };
        subject: { first_name: string };
        cases: { id: number }[];
      }[];
    };
    expect(json.records.map((r) => [r.customer.name, r.subject.first_name])).toEqual([
      [world.customer.name, 'Pat'],
    ]);
    expect(json.records[0]?.cases.map((c) => c.id)).toEqual([world.caseId]);
    expect(String(files.get('summary.txt'))).toContain('Name: Pat Archive');
    expect(String(files.get('data.json'))).not.toContain('Erin');
    await settle(page);
    await lookAtWidths(page, shots, 'your-data');
    await lookLightAndDark(page, await world.api('subject'), shots, 'your-data');
  });

  it('a customer records an erasure request and carries it out', async () => {
    const erin = world.subjects.erin;
    if (!erin) throw new Error('no subject erin');
    const { page } = await world.signedIn(browser, 'admin');
    await page.goto(`/subjects/${erin.id}`);
    await page.getByRole('heading', { name: 'Personal data' }).waitFor();
    await page.getByRole('button', { name: 'Record erasure request' }).click();
    await page.getByLabel('How the person asked').fill('Asked by email on Monday');
    await page.getByRole('button', { name: 'Record request' }).click();
    await page.getByText('Awaiting a decision').waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'subject-erasure-pending');
    await page.getByRole('button', { name: 'Approve and erase' }).click();
    await page.getByText('Carried out').first().waitFor();
    await expect.poll(() => page.getByText('Sign-in closed').count()).toBe(1);
    await page.getByRole('heading', { name: 'Erased subject', level: 1 }).waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'subject-erasure-done');
    await lookLightAndDark(page, await world.api('admin'), shots, 'subject-erasure-done');
    await page.getByRole('link', { name: 'All erasure requests' }).click();
    await page.getByRole('heading', { name: 'Erasure requests', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Erased subject' }).waitFor();
    await settle(page);
    await lookAtWidths(page, shots, 'erasure-requests');
  });
});
