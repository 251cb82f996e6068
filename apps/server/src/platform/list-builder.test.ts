import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { listPage, MAX_ORDERING_TERMS, PreparedShapes, parseOrdering } from './list-builder.js';
import { auditActions } from './tables/audit.table.js';

const dialect = new PgDialect();
const rule = {
  fields: { created_at: auditActions.createdAt, verb: auditActions.verb },
  id: auditActions.id,
  fallback: '-created_at',
};
const orderSql = (requested: string | undefined, r: Parameters<typeof parseOrdering>[1] = rule) => {
  const { order, key } = parseOrdering(requested, r);
  return { text: dialect.sqlToQuery(sql.join(order, sql`, `)).sql, key };
};

describe('parseOrdering', () => {
  it('orders by the named fields, id last in the direction of the first term', () => {
    expect(orderSql('-verb,created_at')).toEqual({
      text: '"audit_actions"."verb" desc, "audit_actions"."created_at" asc, "audit_actions"."id" desc',
      key: '-verb,created_at,-id',
    });
    expect(orderSql('created_at').key).toBe('created_at,id');
    expect(orderSql('id').text).toBe('"audit_actions"."id" asc, "audit_actions"."id" asc');
  });

  it('falls back when none or an empty one is asked for', () => {
    expect(orderSql(undefined).key).toBe('-created_at,-id');
    expect(orderSql('').key).toBe('-created_at,-id');
  });

  it('ignores unknown names, inherited keys and empty terms', () => {
    for (const odd of ['nope', '__proto__', '-constructor', 'toString', ',', '-']) {
      expect(orderSql(odd).text).not.toContain('undefined');
    }
    expect(orderSql('__proto__,-hasOwnProperty,verb').key).toBe('verb,id');
    expect(orderSql('nope').key).toBe('id');
  });

  it('uses at most MAX_ORDERING_TERMS terms', () => {
    const many = Array.from({ length: 20 }, () => 'verb').join(',');
    expect(orderSql(many).key.split(',')).toHaveLength(MAX_ORDERING_TERMS + 1);
  });

  it('keeps the id tiebreaker ascending when asked', () => {
    expect(orderSql('-verb', { ...rule, tiebreak: 'asc' }).key).toBe('-verb,id');
  });
});

describe('listPage', () => {
  it('reads page and page size (at most 100) and the rows to skip', () => {
    expect(listPage({})).toEqual({ page: 1, pageSize: 25, offset: 0 });
    expect(listPage({ page: 3, page_size: 10 })).toEqual({ page: 3, pageSize: 10, offset: 20 });
    expect(listPage({ page: 2, page_size: 1000 })).toEqual({ page: 2, pageSize: 100, offset: 100 });
  });
});

describe('PreparedShapes', () => {
  it('prepares each shape once, named in order, and stops caching at its cap', () => {
    const shapes = new PreparedShapes<string>('list_', 2);
    let built = 0;
    const prepare = (name: string) => {
      built++;
      return name;
    };
    expect(shapes.get('a', prepare)).toBe('list_0');
    expect(shapes.get('a', prepare)).toBe('list_0');
    expect(shapes.get('b', prepare)).toBe('list_1');
    expect(built).toBe(2);
    shapes.get('c', prepare);
    shapes.get('c', prepare);
    expect(built).toBe(4);
  });
});
