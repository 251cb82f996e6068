import {
  isRequirementFieldShown,
  REQUIREMENT_CONFIG_LABELS,
  type RequirementConfigField,
  requirementConfigFields,
} from '@kestrel/domain';
import { Button, Group, Paper, SimpleGrid, Stack, TagsInput, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { type Control, useController, useWatch } from 'react-hook-form';
import {
  CheckboxField,
  KitForm,
  NativeSelectField,
  TextField,
  useFieldLabel,
  useKitForm,
} from '../../../components/form-kit';
import { type Definition, useRequirementConfig } from '../api';
import {
  type CheckSettings,
  type CheckSettingsValues,
  checkSettingsSchema,
  checkSettingsValues,
  SETTING_CHOICES,
  settingKind,
  settingsSummary,
} from './check-settings-schema';
import { checkName } from './requirement-fields';

/** 44 px targets on phones and desktops alike (the inputs, boxes and buttons of the editor). */
const TARGET = { minHeight: 44 };

type Name = `config.${RequirementConfigField}`;
type Ctl = Control<CheckSettingsValues, unknown, CheckSettings>;

/** The document collectors: names typed one by one (Enter after each). */
function CollectorsField({ control, name }: { control: Ctl; name: Name }) {
  const { field, fieldState } = useController({ control, name });
  const label = REQUIREMENT_CONFIG_LABELS.collectors;
  useFieldLabel(name, label);
  return (
    <TagsInput
      id={name}
      ref={field.ref}
      label={label}
      description="Press Enter after each name"
      size="md"
      styles={{ input: TARGET }}
      value={Array.isArray(field.value) ? field.value.map(String) : []}
      onChange={(v) => field.onChange(v)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

function SettingField({ control, field }: { control: Ctl; field: RequirementConfigField }) {
  const name: Name = `config.${field}`;
  const label = REQUIREMENT_CONFIG_LABELS[field];
  switch (settingKind(field)) {
    case 'choice':
      return (
        <NativeSelectField
          control={control}
          name={name}
          label={label}
          styles={{ input: TARGET }}
          data={[{ value: '', label: 'Not set' }, ...(SETTING_CHOICES[field] ?? [])]}
        />
      );
    case 'flag':
      return (
        <CheckboxField
          control={control}
          name={name}
          label={label}
          size="md"
          styles={{ body: { ...TARGET, alignItems: 'center' } }}
        />
      );
    case 'list':
      return <CollectorsField control={control} name={name} />;
    default:
      return (
        <TextField
          control={control}
          name={name}
          label={label}
          size="md"
          styles={{ input: TARGET }}
        />
      );
  }
}

/** The editor of one check's settings: the fields its kind takes, saved whole. */
function CheckSettingsForm({
  definition,
  kind,
  config,
  name,
  onDone,
}: {
  definition: Definition;
  kind: string;
  config: Record<string, unknown>;
  name: string;
  onDone: (saved: boolean) => void;
}) {
  const save = useRequirementConfig(definition.id);
  const kit = useKitForm<CheckSettingsValues, CheckSettings, Definition>({
    schema: checkSettingsSchema(kind),
    defaultValues: checkSettingsValues(config),
    submit: (values) => save.mutateAsync({ activityType: kind, config: values.config }),
    onSaved: () => onDone(true),
  });
  const values = useWatch({ control: kit.form.control, name: 'config' });
  const fields = requirementConfigFields(kind).filter((f) => isRequirementFieldShown(f, values));
  const flags = fields.filter((f) => settingKind(f) === 'flag');
  const others = fields.filter((f) => settingKind(f) !== 'flag');
  return (
    <KitForm kit={kit} aria-label={`Settings: ${name}`}>
      {others.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {others.map((f) => (
            <SettingField key={f} control={kit.form.control} field={f} />
          ))}
        </SimpleGrid>
      )}
      {flags.length > 0 && (
        <Stack gap={0}>
          {flags.map((f) => (
            <SettingField key={f} control={kit.form.control} field={f} />
          ))}
        </Stack>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" size="md" mih={44} onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" size="md" mih={44} loading={kit.saving}>
          Save settings
        </Button>
      </Group>
    </KitForm>
  );
}

/** One check of the licence: its settings in words, and (with the right) their editor. */
function CheckRow({
  definition,
  requirement,
  canChange,
  editing,
  onEdit,
}: {
  definition: Definition;
  requirement: Definition['requirements'][number];
  canChange: boolean;
  editing: boolean;
  onEdit: (on: boolean) => void;
}) {
  const [saved, setSaved] = useState(false);
  const kind = requirement.activity_type;
  const name = checkName(kind, requirement.activity_name);
  const takes = requirementConfigFields(kind).length > 0;
  const summary = settingsSummary(kind, requirement.config);
  const titleId = `check-${kind}`;
  return (
    <Paper component="li" withBorder radius="md" p="md" data-testid={`check-settings-${kind}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <Text fw={600} id={titleId}>
              {name}
            </Text>
            <Text size="sm" c="dimmed">
              {!takes
                ? 'This check has no settings.'
                : summary.length === 0
                  ? 'No settings chosen: the product defaults apply.'
                  : summary.join(' · ')}
            </Text>
            {saved && !editing && (
              <Text size="sm" c="teal.8" role="status">
                Settings saved.
              </Text>
            )}
          </Stack>
          {canChange && takes && !editing && (
            <Button
              variant="light"
              size="md"
              mih={44}
              aria-label={`Edit settings: ${name}`}
              onClick={() => {
                setSaved(false);
                onEdit(true);
              }}
            >
              Edit settings
            </Button>
          )}
        </Group>
        {editing && (
          <CheckSettingsForm
            definition={definition}
            kind={kind}
            config={requirement.config}
            name={name}
            onDone={(ok) => {
              setSaved(ok);
              onEdit(false);
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The settings of each check the licence requires (issue 32): how the check runs for its
 * applicants (a DBS check's workforce and barred lists, driver data's CPC and tacho cards…),
 * one editor open at a time. A check ticked above is listed once the requirements are saved.
 */
export function CheckSettingsList({
  definition,
  canChange,
}: {
  definition: Definition;
  canChange: boolean;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      aria-labelledby="check-settings-title"
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4" id="check-settings-title">
            Check settings
          </Title>
          <Text size="sm" c="dimmed">
            How each check runs for this licence's applicants; applications already made keep their
            settings.
          </Text>
        </Stack>
        {definition.requirements.length === 0 ? (
          <Text size="sm" c="dimmed">
            This licence requires no checks yet.
          </Text>
        ) : (
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
            {definition.requirements.map((r) => (
              <CheckRow
                key={r.activity_type}
                definition={definition}
                requirement={r}
                canChange={canChange}
                editing={editing === r.activity_type}
                onEdit={(on) => setEditing(on ? r.activity_type : null)}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
