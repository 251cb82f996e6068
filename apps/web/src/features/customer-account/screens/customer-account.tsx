import {
  type CustomerAccountUpdate,
  customerAccountUpdate,
  formatDate,
  PRICE_LEVEL_LABELS,
} from '@kestrel/domain';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { actionErrorMessage, actionSuccessMessage } from '../../../api/messages';
import { Fact } from '../../../components/fact';
import {
  EmailField,
  KitForm,
  PhoneNumberField,
  SingleAddressFields,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { useRights } from '../../../lib/rights';
import { ApiKeysSection, WebhooksSection } from '../../api-access';
import { SsoSettings } from '../../sso';
import { type CustomerAccount, customerAccountOptions, useSaveCustomerAccount } from '../api';

type DetailsValues = z.input<typeof customerAccountUpdate>;
const ITEM = 'organisation';

const detailsOf = (a: CustomerAccount): DetailsValues => ({
  name: a.name,
  line_one: a.line_one,
  line_two: a.line_two,
  town: a.town,
  postcode: a.postcode,
  contact_name: a.contact_name,
  contact_email: a.contact_email,
  contact_phone: a.contact_phone,
});

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section">
      <Stack gap="md">
        <Title order={2} size="h3">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function DetailsForm({ account, onDone }: { account: CustomerAccount; onDone: () => void }) {
  const save = useSaveCustomerAccount();
  const kit = useKitForm<DetailsValues, CustomerAccountUpdate, CustomerAccount>({
    schema: customerAccountUpdate,
    defaultValues: detailsOf(account),
    submit: (values) => save.mutateAsync(values),
    onSaved: () => {
      notify.success(actionSuccessMessage('update', ITEM));
      onDone();
    },
  });
  const { control } = kit.form;
  return (
    <KitForm kit={kit} gap="md" aria-label="Organisation details">
      <TextField control={control} name="name" label="Organisation name" required />
      <Title order={3} size="h4">
        Address
      </Title>
      <SingleAddressFields control={control} lookup="customer" />
      <Title order={3} size="h4">
        Contact
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField control={control} name="contact_name" label="Contact name" autoComplete="name" />
        <EmailField control={control} name="contact_email" label="Contact email" />
      </SimpleGrid>
      <PhoneNumberField control={control} name="contact_phone" label="Contact phone" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save changes
        </Button>
      </Group>
    </KitForm>
  );
}

function Details({ account, canChange }: { account: CustomerAccount; canChange: boolean }) {
  const [editing, setEditing] = useState(false);
  const address = [account.line_one, account.line_two, account.town, account.postcode]
    .map((l) => l.trim())
    .filter(Boolean);
  return (
    <Section title="Details">
      {editing ? (
        <DetailsForm account={account} onDone={() => setEditing(false)} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Fact label="Name">{account.name}</Fact>
            <Fact label="Address">
              {address.length > 0 ? address.map((l) => <div key={l}>{l}</div>) : null}
            </Fact>
            <Fact label="Contact">{account.contact_name}</Fact>
            <Fact label="Contact email">{account.contact_email}</Fact>
            <Fact label="Contact phone">{account.contact_phone}</Fact>
            <Fact label="Brand">{account.brand_name}</Fact>
            <Fact label="Demo mode">{account.demo_mode ? 'On' : 'Off'}</Fact>
            <Fact label="Customer since">{formatDate(account.created_at)}</Fact>
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            The brand and demo mode are set by our operations team.
          </Text>
          {canChange && (
            <Group>
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit details
              </Button>
            </Group>
          )}
        </>
      )}
    </Section>
  );
}

function Entitlements({ account }: { account: CustomerAccount }) {
  return (
    <Section title="Entitlements">
      {account.entitlements.length === 0 ? (
        <Text c="dimmed">No extra features are switched on for your organisation.</Text>
      ) : (
        <Group gap="xs">
          {account.entitlements.map((e) => (
            <Badge key={e.entitlement} variant="light" size="lg" tt="none">
              {e.label}
            </Badge>
          ))}
        </Group>
      )}
      <Text size="sm" c="dimmed">
        To change what your organisation may use, contact our operations team.
      </Text>
    </Section>
  );
}

function Security({ account, canChange }: { account: CustomerAccount; canChange: boolean }) {
  const save = useSaveCustomerAccount();
  const toggle = async (on: boolean) => {
    try {
      await save.mutateAsync({ require_totp: on });
      notify.success(actionSuccessMessage('update', 'two-factor policy'));
    } catch {
      notify.error(actionErrorMessage('update', 'two-factor policy'));
    }
  };
  return (
    <Section title="Security">
      <Switch
        label="Require two-factor authentication for all staff"
        description="Staff without an authenticator app set up are asked to set one up the next time they sign in."
        checked={account.require_totp}
        disabled={!canChange || save.isPending}
        onChange={(e) => void toggle(e.currentTarget.checked)}
      />
      {canChange && <SsoSettings />}
    </Section>
  );
}

function Pricebook({ account }: { account: CustomerAccount }) {
  const book = account.pricebook;
  return (
    <Section title="Pricebook">
      {!book ? (
        <Text c="dimmed">No pricebook is in force. Our standard prices apply.</Text>
      ) : (
        <>
          <Group gap="sm">
            <Text fw={600}>{book.name}</Text>
            <Text size="sm" c="dimmed">
              {book.valid_to
                ? `${formatDate(book.valid_from)} to ${formatDate(book.valid_to)}`
                : `From ${formatDate(book.valid_from)}`}
            </Text>
            {book.invoiced && (
              <Badge variant="light" color="grape">
                Invoiced
              </Badge>
            )}
          </Group>
          {book.invoiced && (
            <Text size="sm">Your checks are invoiced: cases are not charged to a card.</Text>
          )}
          <Table.ScrollContainer minWidth={420}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Check</Table.Th>
                  <Table.Th>Level</Table.Th>
                  <Table.Th ta="right">Price</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {book.prices.map((p) => (
                  <Table.Tr key={`${p.activity_type}/${p.level ?? ''}`}>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td>{p.level ? PRICE_LEVEL_LABELS[p.level] : '—'}</Table.Td>
                    <Table.Td ta="right" c={p.amount_pence === null ? 'dimmed' : undefined}>
                      {p.amount_display}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Section>
  );
}

/**
 * /customer-account: the organisation's details, entitlements, security and pricebook; for its
 * administrators, its API keys and webhooks (issue 33).
 */
export default function CustomerAccountScreen() {
  const query = useQuery(customerAccountOptions());
  const { can } = useRights();
  const canChange = can('customers.change_customer');
  const account = query.data;
  return (
    <Stack gap="lg" maw={1080}>
      <Title order={1}>Organisation account</Title>
      {query.isPending ? (
        <Skeleton h={240} radius="lg" />
      ) : !account ? (
        <Alert color="red" variant="light" role="alert">
          {actionErrorMessage('retrieve', ITEM)}
        </Alert>
      ) : (
        <>
          <Details account={account} canChange={canChange} />
          <Entitlements account={account} />
          <Security account={account} canChange={canChange} />
          <Pricebook account={account} />
          <Section title="Data retention">
            <Text size="sm">
              How long your checks’ data are kept before they are redacted automatically.
            </Text>
            <Group>
              <Button
                component={Link}
                to={href('customer-account-retention')}
                variant="default"
                h={44}
              >
                Retention rules
              </Button>
            </Group>
          </Section>
          {canChange && (
            <>
              <ApiKeysSection />
              <WebhooksSection />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
