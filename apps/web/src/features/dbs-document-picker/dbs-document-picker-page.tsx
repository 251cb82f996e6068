// Public pages load only the base Mantine CSS: this page brings the parts it uses.
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/List.css';
import {
  DBS_GROUPS,
  evaluateRoutes,
  type IdentityCheckLevel,
  PICKER_DOCUMENTS,
  type RouteOutcome,
} from '@kestrel/domain';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  Radio,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Icon } from '../../components/icons';

function Outcome({ outcome }: { outcome: RouteOutcome }) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      data-testid={`route-${outcome.route}`}
      style={
        outcome.met ? { borderColor: 'var(--mantine-color-green-7)', borderWidth: 2 } : undefined
      }
    >
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap">
          {outcome.met && (
            <ThemeIcon color="green.8" radius="xl" size={28} aria-hidden="true">
              <Icon name="check" size={16} />
            </ThemeIcon>
          )}
          <Title order={3} size="h4">
            {outcome.title}: {outcome.met ? 'your documents are enough' : 'not yet'}
          </Title>
        </Group>
        {!outcome.met && (
          <>
            <Text size="sm">You still need:</Text>
            <List size="sm" spacing={2}>
              {outcome.missing.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List>
          </>
        )}
        {outcome.note && (
          <Text size="sm" c="dimmed">
            {outcome.note}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /dbs-document-picker (public, no account): tick the identity documents you have and see which
 * DBS identity route they satisfy (basic: one route; standard and enhanced: routes 1 to 3) and
 * what is still missing.
 */
export default function DbsDocumentPickerPage() {
  const [level, setLevel] = useState<IdentityCheckLevel>('standard-enhanced');
  const [chosen, setChosen] = useState<string[]>([]);
  const outcomes = evaluateRoutes(chosen, level);
  const firstMet = outcomes.find((o) => o.met);
  return (
    <Stack gap="xl" maw={760} w="100%">
      <Stack gap="xs">
        <Title order={1}>Which identity documents can I use?</Title>
        <Text>
          For a criminal record (DBS) check you show original documents from the groups below. Tick
          the ones you have, and this guide tells you whether they are enough. You do not need an
          account, and nothing you tick is sent anywhere.
        </Text>
      </Stack>

      <Radio.Group
        label="Which check are you applying for?"
        value={level}
        onChange={(v) => setLevel(v === 'basic' ? 'basic' : 'standard-enhanced')}
        size="md"
      >
        <Stack gap="sm" mt="xs">
          <Radio
            value="standard-enhanced"
            label="Standard or enhanced check"
            styles={{ body: { minHeight: 44, alignItems: 'center' } }}
          />
          <Radio
            value="basic"
            label="Basic check"
            styles={{ body: { minHeight: 44, alignItems: 'center' } }}
          />
        </Stack>
      </Radio.Group>

      <Checkbox.Group
        value={chosen}
        onChange={setChosen}
        label="Which of these documents do you have?"
        description="Only originals count: no photocopies, printouts of online accounts or screenshots."
        size="md"
      >
        <Stack gap="lg" mt="sm">
          {DBS_GROUPS.map((g) => (
            <Paper key={g.group} withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
              <Stack gap="sm">
                <Stack gap={2}>
                  <Title order={2} size="h4">
                    {g.title}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {g.description}
                  </Text>
                </Stack>
                {PICKER_DOCUMENTS.filter((d) => d.group === g.group).map((d) => (
                  <Checkbox
                    key={d.code}
                    value={d.code}
                    size="md"
                    label={d.name}
                    description={d.showsAddress ? 'Can show your current address' : undefined}
                    styles={{ body: { minHeight: 44, alignItems: 'center' } }}
                  />
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      </Checkbox.Group>

      <Stack gap="sm" component="section" aria-labelledby="picker-result">
        <Group justify="space-between">
          <Title order={2} size="h3" id="picker-result">
            Your result
          </Title>
          <Badge size="lg" variant="light">
            {chosen.length === 1 ? '1 document' : `${chosen.length} documents`}
          </Badge>
        </Group>
        <Text aria-live="polite" fw={600}>
          {firstMet
            ? level === 'basic'
              ? 'These documents are enough for a basic check.'
              : `These documents are enough for ${firstMet.title}.`
            : 'These documents are not enough yet.'}
        </Text>
        {outcomes.map((o) => (
          <Outcome key={o.route} outcome={o} />
        ))}
        <Group>
          <Button
            variant="default"
            size="md"
            onClick={() => setChosen([])}
            disabled={chosen.length === 0}
          >
            Clear my choices
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
