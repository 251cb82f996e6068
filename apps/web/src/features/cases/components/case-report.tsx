import { formatDate, formatPhone } from '@kestrel/domain';
import { type CSSProperties, useCallback, useEffect, useState } from 'react';
import { createPortal, flushSync } from 'react-dom';
import type { CaseActivity, CaseDetail } from '../../../api/cases';
import { type Brand, currentBrand } from '../../../app/brands';
import classes from './case-report.module.css';

const words = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const valueText = (v: unknown): string =>
  typeof v === 'boolean'
    ? v
      ? 'Yes'
      : 'No'
    : Array.isArray(v)
      ? v.map(valueText).join(', ')
      : v !== null && typeof v === 'object'
        ? ''
        : String(v ?? '');

/**
 * Whether the case report is on the page: only while printing (the Print action, or the
 * browser's own print command through `beforeprint`), so the screen and its finders never meet
 * a second copy of the case's words. `prepare` mounts it at once, before the dialog opens.
 */
export function usePrintReport(): { printing: boolean; prepare: () => void } {
  const [printing, setPrinting] = useState(false);
  const prepare = useCallback(() => flushSync(() => setPrinting(true)), []);
  useEffect(() => {
    const done = () => setPrinting(false);
    window.addEventListener('beforeprint', prepare);
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('beforeprint', prepare);
      window.removeEventListener('afterprint', done);
    };
  }, [prepare]);
  return { printing, prepare };
}

/** A check's result in words: its recorded result fields, else what its state means. */
export function checkResultText(a: CaseActivity): string {
  const fields = Object.entries(a.result_data ?? {})
    .map(([k, v]) => [k, valueText(v)] as const)
    .filter(([, v]) => v !== '');
  if (fields.length > 0) return fields.map(([k, v]) => `${words(k)}: ${v}`).join('; ');
  if (a.state === 'ca-complete') return 'Complete; no result details recorded';
  if (a.state === 'ca-cancelled') return 'Cancelled: no result';
  return 'No result yet';
}

/** The decision in words, with its date and notes. */
export function decisionText(c: CaseDetail): string {
  if (c.decision) {
    const word = c.decision === 'satisfactory' ? 'Satisfactory' : 'Unsatisfactory';
    return `${word}${c.completed_at ? ` on ${formatDate(c.completed_at)}` : ''}`;
  }
  if (c.state === 'cancelled') return 'None: the case was cancelled';
  return 'Not recorded yet';
}

/**
 * The case as a printed report (the case detail page's Print): the brand, the case, its subject
 * and process, its dates, every check with its state and result, and the decision. Hidden on
 * screen; in print it replaces the page (case-report.module.css).
 */
export function CaseReport({
  item: c,
  organisation,
  printedBy,
  brand = currentBrand,
  now = new Date(),
}: {
  item: CaseDetail;
  organisation?: string | undefined;
  printedBy?: string | undefined;
  brand?: Brand;
  now?: Date;
}) {
  const s = c.subject;
  const name = [s.first_name, s.middlename, s.last_name].filter(Boolean).join(' ');
  const style = { '--report-brand': brand.colour } as CSSProperties;
  const report = (
    <div className={classes.report} data-print-report="" data-testid="case-report" style={style}>
      <header className={classes.header}>
        <div className={classes.brand}>
          <brand.Logo size={28} />
          <span>{brand.name}</span>
        </div>
        <div className={classes.meta}>
          <div>Case report</div>
          <div>
            Printed {formatDate(now)}
            {printedBy ? ` by ${printedBy}` : ''}
          </div>
        </div>
      </header>
      <h1 className={classes.title}>Case #{c.id}</h1>
      <p className={classes.subtitle}>
        {[name, c.process.name, organisation].filter(Boolean).join(' · ')}
      </p>

      <section className={classes.section}>
        <h2 className={classes.heading}>Case</h2>
        <dl className={classes.facts}>
          <Fact label="State">{c.state_display}</Fact>
          <Fact label="Process">{c.process.name}</Fact>
          {organisation ? <Fact label="Organisation">{organisation}</Fact> : null}
          <Fact label="Opened">{formatDate(c.created_at)}</Fact>
          <Fact label="Last update">{formatDate(c.updated_at)}</Fact>
          <Fact label="Completed">{formatDate(c.completed_at) || 'Not yet'}</Fact>
          {c.is_archived ? <Fact label="Archived">{formatDate(c.archived_at)}</Fact> : null}
          <Fact label="Flagged">{c.flagged ? 'Yes' : 'No'}</Fact>
        </dl>
      </section>

      <section className={classes.section}>
        <h2 className={classes.heading}>Subject</h2>
        <dl className={classes.facts}>
          <Fact label="Name">{name}</Fact>
          <Fact label="Email">{s.email}</Fact>
          <Fact label="Date of birth">{formatDate(s.dob) || 'Not given'}</Fact>
          <Fact label="Phone">{formatPhone(s.phone_number) || 'Not given'}</Fact>
        </dl>
      </section>

      <section className={classes.section}>
        <h2 className={classes.heading}>Checks ({c.case_activities.length})</h2>
        <table className={classes.table}>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">State</th>
              <th scope="col">Completed</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {c.case_activities.map((a) => (
              <tr key={a.id} data-testid="report-check">
                <td>{a.activity_type_name}</td>
                <td>{a.state_display}</td>
                <td>{formatDate(a.completed_at) || '–'}</td>
                <td>
                  {checkResultText(a)}
                  {a.notes ? <div>Notes: {a.notes}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className={classes.section}>
        <h2 className={classes.heading}>Decision</h2>
        <div className={classes.decision} data-testid="report-decision">
          <strong>{decisionText(c)}</strong>
          {c.decision_notes ? <div>Notes: {c.decision_notes}</div> : null}
          {c.state === 'cancelled' && c.cancelled_reason ? (
            <div>Reason: {c.cancelled_reason}</div>
          ) : null}
        </div>
      </section>

      <footer className={classes.footer}>
        {brand.name} · {brand.contact.email} · {brand.contact.phone} · {brand.contact.address}
      </footer>
    </div>
  );
  return typeof document === 'undefined' ? report : createPortal(report, document.body);
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
