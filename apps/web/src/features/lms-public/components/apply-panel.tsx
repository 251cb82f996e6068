import {
  TAX_CHECK_CODE_INVALID,
  TAX_CHECK_CODE_PATTERN,
  TAX_CHECK_CODE_REQUIRED,
  TAX_RESPONSIBILITIES_REQUIRED,
} from '@kestrel/domain';
import { Anchor, Button, Checkbox, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorSummary, type SummaryError } from '../../../components/form-kit/error-summary';
import { href, safeNext } from '../../../config/paths';
import {
  type ApplyBody,
  applyOnPortal,
  lmsSubject,
  messagesOf,
  type SubjectApplicationPortalOut,
} from '../api';
import { ApplicationStateBadge, nextStepOf } from './application-state';
import { PortalFrame } from './portal-page';

/** GOV.UK's guidance, for the applicant to read before they confirm or get a code. */
const GUIDANCE = {
  confirm:
    'https://www.gov.uk/guidance/understanding-your-tax-responsibilities-when-applying-for-a-taxi-private-hire-or-scrap-metal-licence',
  code: 'https://www.gov.uk/guidance/complete-a-tax-check-for-a-taxi-private-hire-or-scrap-metal-licence',
};

type Field = 'tax_check_code' | 'tax_responsibilities_confirmed';

/** A code as the applicant may type it ('abc 123-xyz'), as HMRC gives it ('ABC123XYZ'). */
export const normaliseTaxCode = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '');

/** The applicant's open application on this portal: its state, and the way on. */
function Existing({ portal }: { portal: SubjectApplicationPortalOut }) {
  const mine = portal.my_application;
  if (!mine) return null;
  const next = nextStepOf(mine.next_url, portal.fee_display);
  return (
    <Paper withBorder radius="md" p="md" data-testid="my-application">
      <Stack gap="sm" align="flex-start">
        <Text fw={650}>You have already applied ({mine.reference}).</Text>
        <ApplicationStateBadge state={mine.state} label={mine.state_label} />
        {next && (
          <Button component={Link} to={next.to} size="md" mih={44}>
            {next.label}
          </Button>
        )}
        <Anchor component={Link} to={href('s:dashboard')}>
          See your applications
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** The tax check (a code, or the confirmation) and Apply: then to the payment or the case portal. */
function ApplyForm({ portal }: { portal: SubjectApplicationPortalOut }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [elsewhere, setElsewhere] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const needsCode = portal.tax_check === 'code' || elsewhere;

  const check = (): Partial<Record<Field, string>> => {
    if (needsCode) {
      const typed = normaliseTaxCode(code);
      if (!typed) return { tax_check_code: TAX_CHECK_CODE_REQUIRED };
      return TAX_CHECK_CODE_PATTERN.test(typed) ? {} : { tax_check_code: TAX_CHECK_CODE_INVALID };
    }
    return confirmed ? {} : { tax_responsibilities_confirmed: TAX_RESPONSIBILITIES_REQUIRED };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setAttempt((n) => n + 1);
    setErrors(found);
    setFormErrors([]);
    if (Object.keys(found).length > 0) return;
    const body: ApplyBody = needsCode
      ? {
          tax_check_code: normaliseTaxCode(code),
          ...(elsewhere ? { holds_licence_elsewhere: true } : {}),
        }
      : { tax_responsibilities_confirmed: true };
    setBusy(true);
    const r = await applyOnPortal(String(portal.id), body);
    if (r.ok) {
      void client.invalidateQueries({ queryKey: ['lms-subject'] });
      navigate(safeNext(r.data.next_url, href('s:dashboard')));
      return;
    }
    setBusy(false);
    const fields: Partial<Record<Field, string>> = {};
    for (const f of ['tax_check_code', 'tax_responsibilities_confirmed'] as const) {
      const [first] = messagesOf(r.errors, f);
      if (first) fields[f] = first;
    }
    const rest = [...messagesOf(r.errors, 'non_field_errors'), ...messagesOf(r.errors, 'detail')];
    setErrors(fields);
    setFormErrors(
      rest.length || Object.keys(fields).length
        ? rest
        : ['Your application could not be sent. Try again in a moment.'],
    );
  };

  const summary: SummaryError[] = [
    ...formErrors.map((message) => ({ message })),
    ...(Object.entries(errors) as [Field, string][]).map(([field, message]) => ({
      field,
      message,
    })),
  ];
  return (
    <form onSubmit={submit} noValidate data-testid="apply-form">
      <Stack gap="md" align="flex-start">
        <ErrorSummary errors={summary} focusKey={attempt} />
        {portal.tax_check === 'confirm' ? (
          <Text>
            Before you apply for this licence for the first time, HMRC asks you to confirm that you
            know your tax responsibilities.{' '}
            <Anchor href={GUIDANCE.confirm} target="_blank" rel="noreferrer">
              Read HMRC's guidance (opens in a new tab)
            </Anchor>
            .
          </Text>
        ) : (
          <Text>
            HMRC needs a tax check code when you renew, already hold this type of licence (with this
            council or another), or apply again within a year of one ending.{' '}
            <Anchor href={GUIDANCE.code} target="_blank" rel="noreferrer">
              Get a tax check code on GOV.UK (opens in a new tab)
            </Anchor>
            .
          </Text>
        )}
        {portal.tax_check === 'confirm' && (
          <Checkbox
            id="tax_responsibilities_confirmed"
            name="tax_responsibilities_confirmed"
            size="md"
            label="I understand my tax responsibilities"
            checked={confirmed}
            disabled={elsewhere}
            onChange={(e) => setConfirmed(e.currentTarget.checked)}
            error={errors.tax_responsibilities_confirmed}
          />
        )}
        {portal.tax_check === 'confirm' && (
          <Checkbox
            id="holds_licence_elsewhere"
            name="holds_licence_elsewhere"
            size="md"
            label="I hold this type of licence with another council"
            description="Then HMRC needs a tax check code instead."
            checked={elsewhere}
            onChange={(e) => setElsewhere(e.currentTarget.checked)}
          />
        )}
        {needsCode && (
          <TextInput
            id="tax_check_code"
            name="tax_check_code"
            label="Tax check code"
            description="9 letters and numbers, for example 3RX6Y4TWP. A code is valid for 120 days."
            size="md"
            w="100%"
            // the box fits a code; its description and error use the column's width
            styles={{ input: { maxWidth: 320 } }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={13}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.tax_check_code}
          />
        )}
        <Button type="submit" size="lg" mih={48} loading={busy}>
          {portal.fee_pence > 0 ? `Apply and pay ${portal.fee_display}` : 'Apply'}
        </Button>
      </Stack>
    </form>
  );
}

/** The apply step of a signed-in subject: their open application, or the form. */
export function ApplyPanel({ portal }: { portal: SubjectApplicationPortalOut }) {
  return portal.my_application ? <Existing portal={portal} /> : <ApplyForm portal={portal} />;
}

/** /s/application-portals/{id}: the portal for a signed-in subject, with the tax check and Apply. */
export function SubjectPortalPage() {
  const { id = '' } = useParams();
  const portal = useQuery(lmsSubject.portal(id));
  return (
    <PortalFrame
      side="subject"
      load={portal.data}
      onRetry={() => void portal.refetch()}
      action={(p) => <ApplyPanel portal={p} />}
    />
  );
}
