import { ACTIVITY_KINDS, isActivityKindCode } from '@kestrel/domain';
import { Button, Checkbox, Group, Input, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { type Control, type FieldValues, get, useController, useFormState } from 'react-hook-form';
import { type Bound, useFieldLabel } from '../../../components/form-kit';

interface Held {
  activity_type: string;
  config?: Record<string, unknown>;
}

/** The product's kinds of check, in the registry's order (what a licence may require). */
const KINDS = (Object.keys(ACTIVITY_KINDS) as string[]).filter(isActivityKindCode);

/** A check's name: the registry's, else the code (a kind since withdrawn). */
export function checkName(code: string, fallback?: string): string {
  return isActivityKindCode(code) ? ACTIVITY_KINDS[code].name : (fallback ?? code);
}

/** The first message of the errors under `name` (the list's own or one of its items'). */
function firstError(errors: unknown, name: string): string | undefined {
  const node: unknown = get(errors, name);
  const walk = (n: unknown): string | undefined => {
    if (typeof n !== 'object' || n === null) return undefined;
    if ('message' in n && typeof n.message === 'string' && n.message) return n.message;
    for (const [k, v] of Object.entries(n)) {
      if (k === 'ref') continue;
      const found = walk(v);
      if (found) return found;
    }
    return undefined;
  };
  return walk(node);
}

/**
 * The checks an applicant must pass: one box per kind of check the product has, ticked when
 * the licence requires it (a ticked check keeps the configuration it had).
 */
export function ChecksField<T extends FieldValues, O>({
  control,
  name,
  label = 'Checks the applicant must pass',
}: Bound<T, O> & { label?: string }) {
  const { field } = useController({ control, name });
  const { errors } = useFormState({ control, name });
  useFieldLabel(name, label);
  const value: Held[] = Array.isArray(field.value) ? field.value : [];
  const held = new Set(value.map((r) => r.activity_type));
  const extra = value.map((r) => r.activity_type).filter((c) => !isActivityKindCode(c));
  const codes: string[] = [...KINDS, ...extra];
  const toggle = (code: string, on: boolean) =>
    field.onChange(
      on
        ? [...value, { activity_type: code, config: {} }]
        : value.filter((r) => r.activity_type !== code),
    );
  const error = firstError(errors, name);
  return (
    <Input.Wrapper
      id={name}
      label={label}
      description="The product's kinds of check; each application becomes a case of those ticked."
      error={error}
      size="md"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs" data-testid="licence-checks">
        {codes.map((code) => (
          <Checkbox
            key={code}
            label={checkName(code)}
            checked={held.has(code)}
            onChange={(e) => toggle(code, e.currentTarget.checked)}
            onBlur={field.onBlur}
            ref={code === codes[0] ? field.ref : undefined}
          />
        ))}
      </SimpleGrid>
    </Input.Wrapper>
  );
}

/**
 * A list of short texts (documents asked for, declarations to confirm): one input each, a
 * button to add one and one to remove each.
 */
export function ItemsField<T extends FieldValues, O>({
  control,
  name,
  label,
  description,
  itemLabel,
  addLabel,
}: Bound<T, O> & { label: string; description: string; itemLabel: string; addLabel: string }) {
  const { field } = useController({ control, name });
  const { errors } = useFormState({ control, name });
  useFieldLabel(name, label);
  const items: string[] = Array.isArray(field.value) ? field.value.map(String) : [];
  const set = (next: string[]) => field.onChange(next);
  const listError: unknown = get(errors, `${name}.message`);
  return (
    <Input.Wrapper
      id={name}
      label={label}
      description={description}
      error={typeof listError === 'string' ? listError : undefined}
      size="md"
    >
      <Stack gap="xs" mt="xs">
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            None yet.
          </Text>
        )}
        {items.map((item, i) => {
          const error: unknown = get(errors, `${name}.${i}.message`);
          return (
            // Items have no identity but their place; the list is short and edited in place.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
              <Textarea
                id={`${name}.${i}`}
                autosize
                minRows={1}
                aria-label={`${itemLabel} ${i + 1}`}
                value={item}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  set(items.map((x, j) => (j === i ? v : x)));
                }}
                onBlur={field.onBlur}
                error={typeof error === 'string' ? error : undefined}
                style={{ flex: 1 }}
              />
              <Button
                variant="subtle"
                color="red"
                aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
                onClick={() => set(items.filter((_, j) => j !== i))}
              >
                Remove
              </Button>
            </Group>
          );
        })}
        <Group>
          <Button variant="light" size="compact-sm" onClick={() => set([...items, ''])}>
            {addLabel}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

/** The checks, the documents and the declarations of a licence (add form, requirements page). */
export function RequirementFields<T extends FieldValues, O>({
  control,
}: {
  control: Control<T, unknown, O>;
}) {
  return (
    <Stack gap="lg">
      <ChecksField control={control} name={'requirements' as Bound<T, O>['name']} />
      <ItemsField
        control={control}
        name={'documents' as Bound<T, O>['name']}
        label="Documents asked for"
        description="What the applicant uploads or brings, e.g. a Group 2 medical certificate."
        itemLabel="Document"
        addLabel="Add document"
      />
      <ItemsField
        control={control}
        name={'declarations' as Bound<T, O>['name']}
        label="Declarations"
        description="Statements the applicant confirms when applying."
        itemLabel="Declaration"
        addLabel="Add declaration"
      />
    </Stack>
  );
}
