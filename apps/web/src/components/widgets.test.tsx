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
import { Email } from './email';
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
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
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

  it('says a failed load failed (not "nothing here") and loads again on "Try again"', async () => {
    let fail = true;
    const calls = mockFetch(() =>
      fail
        ? { status: 500, body: { detail: 'boom' } }
        : {
            status: 200,
            body: { count: 1, next: null, previous: null, results: [{ id: 1, name: 'Back' }] },
          },
    );
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
        />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Error getting list of people')).toBeInTheDocument();
    expect(screen.getByText('The people could not be loaded')).toBeInTheDocument();
    expect(screen.queryByText(/No people/)).toBeNull();
    expect(screen.queryByText('0 people')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Back');
    expect(calls).toHaveLength(2);
    expect(screen.queryByTestId('list-state')).toBeNull();
  });

  it('shows a first-use state with the next step when there is nothing and nothing filters', async () => {
    mockFetch(() => ({ status: 200, body: { count: 0, next: null, previous: null, results: [] } }));
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
          empty={{
            title: 'No people yet',
            text: 'Add the first person.',
            action: <button type="button">Add person</button>,
          }}
        />
      </MemoryRouter>,
    );
    expect(await screen.findByText('No people yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add person' })).toBeInTheDocument();
    expect(screen.queryByText('Nothing to show yet.')).toBeNull();
  });

  it('says a search matched nothing and clears it on "Clear filters"', async () => {
    const calls = mockFetch((c) => {
      const search = new URL(c.url, 'http://x').searchParams.get('search');
      const results = search ? [] : [{ id: 1, name: 'Ann' }];
      return { status: 200, body: { count: results.length, next: null, previous: null, results } };
    });
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
          empty={{ title: 'No people yet', text: 'Add the first person.' }}
        />
      </MemoryRouter>,
    );
    await screen.findByText('Ann');
    fireEvent.change(screen.getByLabelText('Search people'), { target: { value: 'zed' } });
    expect(
      await screen.findByText('No people match your search or filters', {}, { timeout: 2000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('No people yet')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Ann');
    expect(screen.getByLabelText('Search people')).toHaveValue('');
    expect(calls.some((c) => c.url.includes('search=zed'))).toBe(true);
  });

  it('names every pagination button and links the first column in the theme style', async () => {
    mockFetch(() => ({
      status: 200,
      body: { count: 80, next: null, previous: null, results: [{ id: 7, name: 'Seven' }] },
    }));
    renderWithProviders(
      <MemoryRouter>
        <ResourceTable
          resource={people}
          rowHref={(p) => `/people/${p.id}`}
          columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
        />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Seven' });
    expect(link).toHaveClass('mantine-Anchor-root');
    for (const button of screen.getAllByRole('button')) {
      expect(button).toHaveAccessibleName();
    }
    expect(screen.getByRole('button', { name: 'Next page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 4' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Pages of people' })).toBeInTheDocument();
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
    // The thumbnail shows 'PDF': its name starts with it (WCAG 2.5.3, label in name).
    const view = screen.getByRole('button', { name: 'PDF: View Passport' });
    expect(view.textContent).toBe('PDF');
    fireEvent.click(view);
    await waitFor(() =>
      expect(document.querySelector('iframe')?.getAttribute('src')).toBe(
        '/api/case-documents/4/download/?inline=true',
      ),
    );
  });
});

describe('Email', () => {
  it('may wrap only before the @ and before dots, and keeps the whole address as its title', () => {
    const { container } = renderWithProviders(<Email address="tom.hughes+work@acme-people.test" />);
    const span = container.querySelector('span[title]');
    expect(span?.getAttribute('title')).toBe('tom.hughes+work@acme-people.test');
    expect(span?.textContent).toBe('tom.hughes+work@acme-people.test');
    expect(span?.innerHTML.split('<wbr>').map((part) => part.replace(/<[^>]+>/g, ''))).toEqual([
      'tom',
      '.hughes+work',
      '@acme-people',
      '.test',
    ]);
  });
});
