import {
  APPLICATION_TEXT_MAX,
  applicationGrantInput,
  applicationRefuseInput,
  applicationRequestInfoInput,
  maxCharacters,
} from '@kestrel/domain';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import { backendErrorLines } from '../../../api/messages';
import { ApiFailure } from '../../../api/resource';
import { notify } from '../../../lib/notify';
import { type ApplicationDetail, useApplicationAction } from '../api';

export type Decision = 'grant' | 'refuse' | 'request-info' | 'record-payment';

interface Wording {
  verb: string;
  title: string;
  text: string;
  field: 'conditions' | 'reason' | 'message' | 'note';
  required: boolean;
  label: string;
  description: string;
  schema: z.ZodType<Record<string, string>>;
  done: string;
  colour?: string;
}

export const DECISIONS: Record<Decision, Wording> = {
  grant: {
    verb: 'Grant',
    title: 'Grant the licence?',
    text: 'The licence is issued now with the next number in the council’s format, and the applicant is told. An applicant who already holds an active licence of this type has that licence renewed instead (no second licence).',
    field: 'conditions',
    required: false,
    label: 'Conditions (optional)',
    description: 'Printed on the licence, e.g. a condition of the council’s policy',
    schema: applicationGrantInput,
    done: 'Licence granted',
  },
  refuse: {
    verb: 'Refuse',
    title: 'Refuse the application?',
    text: 'The applicant is told the reason. The refusal is kept in the council’s register of refusals, suspensions and revocations.',
    field: 'reason',
    required: true,
    label: 'Reason',
    description: 'Sent to the applicant and kept in the register',
    schema: applicationRefuseInput,
    done: 'Application refused',
    colour: 'red',
  },
  'request-info': {
    verb: 'Ask for more',
    title: 'Ask the applicant for more?',
    text: 'The application waits for the applicant’s answer; they see your message on their dashboard.',
    field: 'message',
    required: true,
    label: 'Message',
    description: 'What the applicant must send or do',
    schema: applicationRequestInfoInput,
    done: 'More information requested',
  },
  'record-payment': {
    verb: 'Record payment',
    title: 'Record the fee as paid?',
    text: 'For a fee taken by the council itself (at its counter or by invoice): the application’s checks start now.',
    field: 'note',
    required: false,
    label: 'Note (optional)',
    description: 'How it was paid, e.g. a receipt number',
    schema: z.object({ note: z.string().trim().max(500, maxCharacters(500)).default('') }),
    done: 'Payment recorded',
  },
};

/**
 * The confirmation of a decision on an application, with its text (conditions, a reason, a
 * message): checked by the contract's rule before sending; the API's refusal stays in the
 * dialog (on the field, or above the buttons).
 */
export function DecisionDialog({
  application,
  decision,
  onClose,
}: {
  application: ApplicationDetail;
  decision: Decision | null;
  onClose: () => void;
}) {
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const run = useApplicationAction(application.id);
  const w = decision ? DECISIONS[decision] : null;
  const close = () => {
    setValue('');
    setFieldError(null);
    setProblems([]);
    onClose();
  };
  const confirm = async () => {
    if (!decision || !w) return;
    setProblems([]);
    const parsed = w.schema.safeParse({ [w.field]: value });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Required');
      return;
    }
    setFieldError(null);
    try {
      await run.mutateAsync({ action: decision, body: parsed.data });
      notify.success(w.done);
      close();
    } catch (error) {
      if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
        const { [w.field]: own, ...rest } = error.body;
        if (Array.isArray(own)) setFieldError(own.map(String).join(' '));
        setProblems(backendErrorLines(rest));
      } else setProblems(['Something went wrong. Try again.']);
    }
  };
  return (
    <Modal opened={w !== null} onClose={close} title={w?.title ?? ''} zIndex={400}>
      {w && (
        <Stack gap="md">
          <Text size="sm" fw={600}>
            {application.reference}: {application.applicant.name}
          </Text>
          <Text size="sm">{w.text}</Text>
          <Textarea
            id={`decision-${w.field}`}
            label={w.label}
            description={w.description}
            required={w.required}
            autosize
            minRows={3}
            maxLength={APPLICATION_TEXT_MAX}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={fieldError}
            data-autofocus
          />
          {problems.length > 0 && (
            <Alert color="red" role="alert" title="Not decided">
              {problems.map((p) => (
                <Text key={p} size="sm">
                  {p}
                </Text>
              ))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color={w.colour} loading={run.isPending} onClick={() => void confirm()}>
              {w.verb}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
