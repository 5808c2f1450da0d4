import { describe, expect, it } from 'vitest';
import { PaginationQuerySchema, StatusListQuerySchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('queries (spec: Pagination)', () => {
  it('takes numbers as strings from the wire and refuses per_page above 50', () => {
    expect(PaginationQuerySchema.parse({ page: '2', per_page: '50' })).toEqual({ page: 2, per_page: 50 });
    expect(issues(PaginationQuerySchema, { per_page: '51' })[0]?.path).toBe('per_page');
  });

  it('refuses an unknown status value', () => {
    expect(issues(StatusListQuerySchema, { status: 'scheduled' })[0]?.path).toBe('status');
    expect(issues(StatusListQuerySchema, { status: 'all' })).toEqual([]);
  });
});
