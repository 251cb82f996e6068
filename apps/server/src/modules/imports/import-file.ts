import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { ValidationError } from '../../platform/errors.js';

/** A spreadsheet's kind, from the upload's name (CSV or XLSX; nothing else is read). */
export type SheetKind = 'csv' | 'xlsx';

export function sheetKindOf(fileName: string): SheetKind {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  throw ValidationError.of('file', 'Upload a CSV (.csv) or Excel (.xlsx) file.');
}

/** A cell as text: dates as YYYY-MM-DD, rich text and hyperlinks by their text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value && value.result !== undefined)
      return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value).trim();
}

/**
 * The rows of a spooled CSV or XLSX file (the first worksheet), one array of cells at a time,
 * read as a stream: the file is never held in memory whole (csv-parse; exceljs's streaming
 * workbook reader). Wholly empty rows are skipped; the row number is the file's (header is 1).
 */
export async function* readSheet(
  path: string,
  kind: SheetKind,
): AsyncGenerator<{ rowNumber: number; cells: string[] }> {
  if (kind === 'csv') {
    const parser = createReadStream(path).pipe(
      parse({
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        trim: true,
        info: true,
      }),
    );
    for await (const record of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      yield { rowNumber: record.info.lines, cells: record.record };
    }
    return;
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      const cells = Array.from(values, (v) => cellText(v));
      if (cells.every((c) => c === '')) continue;
      yield { rowNumber: row.number, cells };
    }
    // the first worksheet only
    break;
  }
}
