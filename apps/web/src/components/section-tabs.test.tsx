import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { activeTab, SectionTabs } from './section-tabs';

const tabs = [
  { to: '/processes/1', label: 'Overview' },
  { to: '/processes/1/cycles', label: 'Cycles' },
  { to: '/processes/1/details', label: 'Details' },
];

describe('section tabs', () => {
  it('picks the tab a path equals or lies under, the longest one', () => {
    expect(activeTab('/processes/1', tabs)).toBe('/processes/1');
    expect(activeTab('/processes/1/cycles', tabs)).toBe('/processes/1/cycles');
    expect(activeTab('/processes/1/cycles/3/edit', tabs)).toBe('/processes/1/cycles');
    expect(activeTab('/processes/1/cyclesx', tabs)).toBe('/processes/1');
    expect(activeTab('/processes/12', tabs)).toBeNull();
  });

  it('marks the section of a page inside it as the current one', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/processes/1/cycles/add']}>
        <SectionTabs label="Process sections" tabs={tabs} />
      </MemoryRouter>,
    );
    const current = await screen.findByRole('link', { name: 'Cycles' });
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
  });
});
