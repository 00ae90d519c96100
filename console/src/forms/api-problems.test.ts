import { describe, expect, it } from 'vitest';
import { problemsByField } from './api-problems';

describe('problemsByField', () => {
  it("puts the form's fields' problems at their field (joined) and lists the rest", () => {
    const { byField, rest } = problemsByField(
      {
        status: 400,
        message: 'Validation failed',
        details: [
          { field: 'ncm', problem: 'must be an NCM code of 8 digits' },
          { field: 'ncm', problem: 'must be a string' },
          { field: 'unknownField', problem: 'should not exist' },
          { problem: 'no field' },
        ],
      },
      ['productId', 'ncm'],
    );
    expect(byField).toEqual({ ncm: 'must be an NCM code of 8 digits; must be a string' });
    expect(rest).toEqual([{ field: 'unknownField', problem: 'should not exist' }, { problem: 'no field' }]);
    expect(problemsByField(undefined, ['ncm'])).toEqual({ byField: {}, rest: [] });
  });
});
