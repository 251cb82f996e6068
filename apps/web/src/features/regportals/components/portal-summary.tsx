import { formatPence } from '@kestrel/domain';
import { List, Paper, Stack, Text, Title } from '@mantine/core';
import type { PublicPortal } from '../api';

/** What it costs the person registering: the price when they pay, else nothing. */
export function costText(p: Pick<PublicPortal, 'payer' | 'price_pence' | 'customer_name'>) {
  if (p.payer === 'subject' && p.price_pence !== null)
    return `${formatPence(p.price_pence)}, paid by card once you have confirmed your email.`;
  return `Nothing: ${p.customer_name} pays for your checks.`;
}

/** A portal's introduction, what will be checked and what it costs (public and /s/ pages). */
export function PortalSummary({ portal }: { portal: PublicPortal }) {
  return (
    <Stack gap="lg">
      {portal.introduction && (
        <Text style={{ whiteSpace: 'pre-line' }} data-testid="portal-introduction">
          {portal.introduction}
        </Text>
      )}
      <Stack gap="xs" component="section" aria-labelledby="checks-heading">
        <Title order={2} fz="lg" id="checks-heading">
          What will be checked
        </Title>
        {portal.checks.length > 0 ? (
          <List spacing={4}>
            {portal.checks.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
        ) : (
          <Text>The checks {portal.customer_name} asks for.</Text>
        )}
      </Stack>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="cost-heading">
        <Stack gap={4}>
          <Text id="cost-heading" fw={650}>
            What it costs you
          </Text>
          {portal.payer === 'subject' && portal.price_pence !== null && (
            <Text fz={28} fw={750} data-testid="price">
              {formatPence(portal.price_pence)}
            </Text>
          )}
          <Text>{costText(portal)}</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
