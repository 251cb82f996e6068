import { formatDate } from '@kestrel/domain';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, OWN_ARCHIVE_HREF, ownErasureOptions, useAskErasure } from './api';
import { ErasureReasonForm } from './erasure-reason-form';

const color = { pending: 'yellow', refused: 'gray', completed: 'teal' } as const;

/**
 * The subject profile's 'Your data' section (issue 34): download everything Kestrel holds about
 * you as a ZIP; ask for your data to be erased, and see each organisation's answer.
 */
export function YourDataSection() {
  const query = useQuery(ownErasureOptions());
  const ask = useAskErasure();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const requests = query.data?.results ?? [];
  const waiting = requests.some((r) => r.state === 'pending');
  const send = async () => {
    setError(null);
    const res = await ask.mutateAsync({ reason });
    if (res.ok) setOpen(false);
    else setError(errorText(res.data));
  };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Your data
        </Title>
        <Text size="sm">
          Download everything we hold about you: your profile, cases, the details you gave,
          consents, the state of your checks and your documents, as one ZIP file.
        </Text>
        <Group>
          <Button component="a" href={OWN_ARCHIVE_HREF} download variant="light" size="md" mih={44}>
            Download your data
          </Button>
        </Group>
        <Text size="sm">
          You can ask each organisation that checked you to erase your personal data. They keep a
          record of each check (its date, reference, level and outcome) and payments, as the law
          requires.
        </Text>
        {requests.map((r) => (
          <Group key={r.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              {r.customer.name}: asked on {formatDate(r.created_at)}
              {r.decision_reason ? ` (${r.decision_reason})` : ''}
            </Text>
            <Badge color={color[r.state]} variant="light">
              {r.state_display}
            </Badge>
          </Group>
        ))}
        {open ? (
          <ErasureReasonForm
            label="Anything you want them to know (optional)"
            submit="Send erasure request"
            value={reason}
            onChange={setReason}
            error={error}
            pending={ask.isPending}
            onCancel={() => setOpen(false)}
            onSubmit={send}
            danger
            touch
          />
        ) : (
          !waiting && (
            <Group>
              <Button variant="default" size="md" mih={44} onClick={() => setOpen(true)}>
                Ask for your data to be erased
              </Button>
            </Group>
          )
        )}
      </Stack>
    </Paper>
  );
}
