import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { currentBrand } from '../../app/brands';

export default function SupportPage() {
  const { name, contact } = currentBrand;
  return (
    <Stack gap="lg">
      <Title order={1}>Support</Title>
      <Text>Our team answers on working days from 8:30 to 17:30.</Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="lg" radius="lg">
          <Text fw={650}>Email</Text>
          <Anchor href={`mailto:${contact.email}`}>{contact.email}</Anchor>
        </Paper>
        <Paper withBorder p="lg" radius="lg">
          <Text fw={650}>Phone</Text>
          <Text>{contact.phone}</Text>
        </Paper>
        <Paper withBorder p="lg" radius="lg">
          <Text fw={650}>Post</Text>
          <Text>
            {name}, {contact.address}
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
