import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_WORKER_CHECKS, newWorld, type World } from './fixtures';
import { axeClean, launch, newPage, PHONE, screenshot } from './helpers';
import { pdfBomb, png } from './test-files';

// Documents (issue 16): the public DBS document picker, and a subject's uploaded PDF and photo
// shown on the customer's case detail with thumbnails, the viewer and Open links. The uploads go
// to a case of a world of this file's own (e2e/fixtures.ts), not the demo subject's case.

/** A one-page PDF with a line of text. */
function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = 'BT /F1 18 Tf 30 100 Td (Utility bill) Tj ET';
  objects[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

let browser: Browser;
let world: World;
beforeAll(async () => {
  browser = await launch();
  world = await newWorld({ withCase: CARE_WORKER_CHECKS });
});
afterAll(async () => {
  await world?.dispose();
  await browser?.close();
});

describe('DBS document picker (public)', () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1366, height: 860 }],
    ['phone', { width: 360, height: 800 }],
  ] as const) {
    it(`guides to a route without an account (${label})`, async () => {
      const { context, page } = await newPage(browser, { viewport });
      await page.goto('/dbs-document-picker');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Which identity documents can I use?');
      expect(new URL(page.url()).pathname).toBe('/dbs-document-picker');
      await screenshot(page, `dbs-document-picker-${label}-top`);
      await page.getByRole('checkbox', { name: 'Passport', exact: true }).check();
      await page.getByRole('checkbox', { name: 'Bank or building society statement' }).check();
      await expect
        .poll(() => page.getByTestId('route-1').textContent())
        .toContain('1 more document');
      await page.getByRole('checkbox', { name: /^Utility bill/ }).check();
      await expect
        .poll(() => page.getByText('These documents are enough for Route 1.').count())
        .toBe(1);
      expect(await axeClean(page)).toEqual([]);
      await page.getByTestId('route-1').scrollIntoViewIfNeeded();
      await screenshot(page, `dbs-document-picker-${label}`);
      // touch targets: every checkbox and radio row is at least 44 px high on a phone
      if (label === 'phone') {
        const rows = await page.$$eval('.mantine-Checkbox-body, .mantine-Radio-body', (els) =>
          els.map((e) => e.getBoundingClientRect().height),
        );
        expect(rows.length).toBeGreaterThan(25);
        expect(rows.filter((h) => h < 44)).toEqual([]);
      }
      await context.close();
    });
  }
});

describe('a subject’s documents on the customer case detail', () => {
  let caseId = 0;
  let staff: APIRequestContext;

  beforeAll(async () => {
    ({ api: staff } = await world.api('admin'));
    caseId = world.caseId;
    const { api, csrf } = await world.api('subject');
    const passportQuestions = 'original,in-date,photo-matches,name-matches,not-tampered';
    for (const [type, confirmations, file] of [
      [
        'passport',
        passportQuestions,
        { name: 'passport.png', mimeType: 'image/png', buffer: png() },
      ],
      [
        'utility-bill',
        '',
        { name: 'utility-bill.pdf', mimeType: 'application/pdf', buffer: pdf() },
      ],
    ] as const) {
      const res = await api.post('/api/s/case-documents/', {
        headers: { 'X-CSRFToken': csrf() },
        multipart: {
          case: String(caseId),
          document_type: type,
          collector: 'identity',
          ...(confirmations ? { confirmations } : {}),
          file,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
  });

  async function openCase(page: Page) {
    await page.goto(`/cases/${caseId}`);
    const card = page.getByTestId('case-documents-card');
    await card.getByText('Utility bill (not a mobile phone bill)').waitFor();
    return card;
  }

  it('shows thumbnails, a viewer and Open links (desktop and phone)', async () => {
    const { context, page } = await world.signedIn(browser, 'admin');
    const card = await openCase(page);
    await expect.poll(() => card.getByText('Passport', { exact: true }).count()).toBe(1);
    // The thumbnails load lazily (loading="lazy"): on the demo case, with its many activities,
    // the documents card starts below the fold, so it is scrolled to, as a reader would.
    await card.scrollIntoViewIfNeeded();
    // both thumbnails (the photo and the PDF's first page) load, once the server's job has made
    // them (the list is read again while a preview is on its way)
    await expect
      .poll(
        () =>
          card
            .locator('img')
            .evaluateAll(
              (imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length,
            ),
        { timeout: 30_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(2);
    const open = card.getByRole('link', { name: 'Open Passport in a new tab' });
    const href = await open.getAttribute('href');
    expect(href).toMatch(/^\/api\/case-documents\/\d+\/download\/\?inline=true$/);
    const file = await page.request.get(href ?? '');
    expect(file.headers()['content-type']).toBe('image/png');
    await card.getByRole('button', { name: 'View Passport' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('img', { name: 'Passport' }).count()).toBe(1);
    await screenshot(page, 'case-documents-viewer-desktop');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    expect(await axeClean(page)).toEqual([]);
    await screenshot(page, 'case-documents-desktop');
    await context.close();

    const phone = await world.signedIn(browser, 'admin', { viewport: PHONE });
    const phoneCard = await openCase(phone.page);
    await phoneCard.scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'case-documents-phone');
    expect(await axeClean(phone.page)).toEqual([]);
    await phone.context.close();
  });

  it("keeps a PDF bomb with 'No preview', and its page still opens (desktop and phone)", async () => {
    const { api, csrf } = await world.api('subject');
    const bomb = await pdfBomb(200);
    const started = Date.now();
    const res = await api.post('/api/s/case-documents/', {
      headers: { 'X-CSRFToken': csrf() },
      multipart: {
        case: String(caseId),
        document_type: 'bank-statement',
        collector: 'identity',
        file: { name: 'statement.pdf', mimeType: 'application/pdf', buffer: bomb },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    expect(Date.now() - started).toBeLessThan(5_000);
    const id = (await res.json()).id as number;
    await expect
      .poll(
        async () => (await (await staff.get(`/api/case-documents/${id}/`)).json()).pages[0].preview,
        { timeout: 30_000, interval: 250 },
      )
      .toBe('none');
    for (const [label, viewport] of [
      ['desktop', { width: 1280, height: 860 }],
      ['phone', PHONE],
    ] as const) {
      const { context, page } = await world.signedIn(browser, 'admin', { viewport });
      const card = await openCase(page);
      const view = card.getByRole('button', { name: /^No preview \(PDF\): View Bank/ });
      await view.scrollIntoViewIfNeeded();
      expect(await view.getByText('No preview (PDF)').count()).toBe(1);
      await screenshot(page, `case-documents-no-preview-${label}`);
      expect(await axeClean(page)).toEqual([]);
      await view.click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.locator('object[type="application/pdf"]').count()).toBe(1);
      await screenshot(page, `case-documents-no-preview-viewer-${label}`);
      await context.close();
    }
  });
});
