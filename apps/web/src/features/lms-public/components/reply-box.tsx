import { APPLICATION_TEXT_MAX, MESSAGES } from '@kestrel/domain';
import { Alert, Button, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { lmsSubject, messagesOf, respondToRequest, type SubjectApplicationOut } from '../api';
import classes from './lms-public.module.css';

// A chunk of its own: the contract's limits come with the schemas of their module (zod), which
// the dashboard does not otherwise load; only an application the council asked about needs it.

/** The council's question and the applicant's answer (POST .../respond/). */
export default function ReplyBox({
  app,
  onSent,
}: {
  app: SubjectApplicationOut;
  onSent: () => void;
}) {
  const client = useQueryClient();
  const id = useId();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      setError(MESSAGES.required);
      return;
    }
    setBusy(true);
    const r = await respondToRequest(app.id, message.trim());
    setBusy(false);
    if (r.ok) {
      setMessage('');
      setError(null);
      onSent();
      void client.invalidateQueries({ queryKey: lmsSubject.applicationsKey });
      return;
    }
    const [first] = [
      ...messagesOf(r.errors, 'message'),
      ...messagesOf(r.errors, 'non_field_errors'),
      ...messagesOf(r.errors, 'detail'),
    ];
    setError(first ?? 'Your reply could not be sent. Try again in a moment.');
  };
  return (
    <Alert
      color="yellow"
      variant="light"
      title={`${app.customer_name} asked for more information`}
      data-testid="info-request"
    >
      <Stack gap="sm">
        <Text size="sm" className={classes.prose}>
          {app.info_request}
        </Text>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" align="flex-start">
            <Textarea
              id={`${id}-reply`}
              label="Your reply"
              w="100%"
              autosize
              minRows={3}
              maxLength={APPLICATION_TEXT_MAX}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              error={error}
            />
            <Button type="submit" size="md" mih={44} loading={busy}>
              Send reply
            </Button>
          </Stack>
        </form>
      </Stack>
    </Alert>
  );
}
