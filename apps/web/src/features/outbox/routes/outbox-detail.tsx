import { Anchor, Box, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { outboxEmails } from '../../../api/outbox';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { LinkifiedText } from '../components/linkify';
import { receivedAt } from '../components/received-at';

const preStyle = {
  margin: 0,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: 'var(--mantine-font-family-monospace)',
  fontSize: 'var(--mantine-font-size-sm)',
  lineHeight: 1.6,
} as const;

const back = (
  <Anchor component={Link} to={href('ops:outbox')} size="sm">
    ← Outbox
  </Anchor>
);

/** One email of the outbox: recipient, subject, time and the text body with working links. */
export default function OutboxDetail() {
  const { id = '' } = useParams();
  const query = outboxEmails.useItem(id);
  const mail = query.data;
  if (!mail) {
    return query.isError ? (
      <Stack gap="lg">
        {back}
        <Title order={1}>Email</Title>
        <Text c="dimmed">This email is not in the outbox.</Text>
      </Stack>
    ) : (
      <Skeleton h={320} radius="lg" />
    );
  }
  return (
    <Stack gap="lg" maw={960}>
      {back}
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {mail.subject || '(no subject)'}
      </Title>
      <Paper withBorder radius="lg" p="xl">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Fact label="To">{mail.to}</Fact>
          <Fact label="Received">{receivedAt(mail.created_at, { seconds: true })} UTC</Fact>
          <Fact label="Subject">{mail.subject || '(no subject)'}</Fact>
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="lg" p="xl" component="section" aria-labelledby="outbox-text">
        <Title order={2} size="h4" id="outbox-text" mb="md">
          Text
        </Title>
        <Box component="pre" style={preStyle} data-testid="outbox-text">
          <LinkifiedText text={mail.text} />
        </Box>
      </Paper>
      {mail.html && (
        <Paper withBorder radius="lg" p="xl" component="section" aria-labelledby="outbox-html">
          <Title order={2} size="h4" id="outbox-html" mb="md">
            HTML source
          </Title>
          <Box component="pre" style={preStyle}>
            {mail.html}
          </Box>
        </Paper>
      )}
    </Stack>
  );
}
