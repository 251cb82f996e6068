import { emailSchema, forenameSchema } from '@kestrel/domain';
import { TextInput } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineResource } from '../api/resource';
import { mockFetch } from '../test/fetch-mock';
import { renderWithProviders } from '../test/render';
import { CopyButton } from './copy-button';
import { DocumentViewer } from './document-viewer';
import { useResourceForm } from './resource-form';
import { ResourceTable } from './resource-table';

afterEach(() => vi.unstubAllGlobals());

interface Person {
  id: number;
  name: string;
}
const people = defineResource<Person>('/api/people/', { item: 'person', plural: 'people' });

describe('ResourceTable', () => {
  it('lists a page with its count and asks for the next page', async () => {
    const calls = mockFetch((c) => {
      const page = Number(new URL(c.url, 'http://x').searchParams.get('page'));
      return {
        status: 200,
        body: {
          count: 30,
          next: null,
          previous: null,
          results: [{ id: page, name: `Person ${page}` }],
        },
      };
    });
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
          pageSize={25}
        />
      </MemoryRouter>,
    );
    await screen.findByText('Person 1');
    expect(screen.getByText('30 people')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('Person 2');
    expect(calls.map((c) => c.url)).toEqual([
      '/api/people/?page=1&page_size=25',
      '/api/people/?page=2&page_size=25',
    ]);
  });

  it('counts one row in the singular', async () => {
    mockFetch(() => ({
      status: 200,
      body: { count: 1, next: null, previous: null, results: [{ id: 1, name: 'Only' }] },
    }));
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
        />
      </MemoryRouter>,
    );
    await screen.findByText('Only');
    expect(screen.getByText('1 person')).toBeInTheDocument();
  });

  it('shows "Error getting list of people" when the list fails, and an empty table', async () => {
    mockFetch(() => ({ status: 500, body: { detail: 'boom' } }));
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
        />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Error getting list of people')).toBeInTheDocument();
    expect(screen.getByText('0 people')).toBeInTheDocument();
  });
});

const personSchema = z.object({ name: forenameSchema, email: emailSchema });

function PersonForm({ onSaved }: { onSaved: (p: Person) => void }) {
  const { form, onSubmit } = useResourceForm({
    resource: people,
    schema: personSchema,
    defaultValues: { name: '', email: '' },
    onSaved,
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <TextInput
        label="Name"
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
      <TextInput
        label="Email"
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <button type="submit">Save</button>
    </form>
  );
}

describe('useResourceForm', () => {
  it('validates with the domain schema before calling the API', async () => {
    const calls = mockFetch(() => ({ status: 201, body: { id: 1, name: 'x' } }));
    renderWithProviders(<PersonForm onSaved={() => {}} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('creates, toasts "Successfully added person" and hands back the item', async () => {
    const calls = mockFetch(() => ({ status: 201, body: { id: 7, name: 'Ann' } }));
    const onSaved = vi.fn();
    renderWithProviders(<PersonForm onSaved={onSaved} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ id: 7, name: 'Ann' }));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/people/',
      body: { name: 'Ann', email: 'ann@example.com' },
    });
    expect(await screen.findByText('Successfully added person')).toBeInTheDocument();
  });

  it('puts a 400 on the fields and toasts "Error adding person" with the field lines', async () => {
    mockFetch(() => ({ status: 400, body: { email: ['Already used'] } }));
    renderWithProviders(<PersonForm onSaved={() => {}} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByText('Already used')).toBeInTheDocument();
    expect(await screen.findByText(/Error adding person/)).toBeInTheDocument();
  });
});

describe('CopyButton', () => {
  it('says "Copied" on success and "Error copying" on failure', async () => {
    const writeText = vi
      .fn()
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<CopyButton value="CASE-42" label="Copy id" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy id' }));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy id' }));
    expect(await screen.findByText('Error copying')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('CASE-42');
  });
});

describe('DocumentViewer', () => {
  it('shows a PDF thumbnail, opens the viewer and has an Open link', async () => {
    renderWithProviders(
      <DocumentViewer
        document={{
          name: 'Passport',
          url: '/api/case-documents/4/download/?inline=true',
          extension: 'pdf',
        }}
      />,
    );
    expect(screen.getByText('PDF')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Passport in a new tab' })).toHaveAttribute(
      'href',
      '/api/case-documents/4/download/?inline=true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'View Passport' }));
    await waitFor(() =>
      expect(document.querySelector('iframe')?.getAttribute('src')).toBe(
        '/api/case-documents/4/download/?inline=true',
      ),
    );
  });
});
