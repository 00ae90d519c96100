import { describe, expect, it } from 'vitest';
import { csvProblemLine } from './csv-problems';

describe('csvProblemLine', () => {
  it("reads the line and the column from the detail's typed fields", () => {
    expect(csvProblemLine({ field: 'line 3 ICMS_rate', problem: 'must be a number', line: 3, column: 'ICMS_rate' })).toEqual({
      line: 3,
      text: 'ICMS_rate: must be a number',
    });
    expect(csvProblemLine({ field: 'line 2', problem: 'has 4 cells, the header has 8', line: 2 })).toEqual({
      line: 2,
      text: 'has 4 cells, the header has 8',
    });
  });

  it('never reads the line or the column out of `field`', () => {
    // The typed fields win over the words...
    expect(csvProblemLine({ field: 'line 9 CFOP', problem: 'p', line: 4, column: 'CEST' })).toEqual({ line: 4, text: 'CEST: p' });
    // ...and without them the field is shown as it came, with no line.
    expect(csvProblemLine({ field: 'line 3 ICMS_rate', problem: 'p' })).toEqual({ text: 'line 3 ICMS_rate: p' });
    expect(csvProblemLine({ field: 'id', problem: 'must be a UUID' })).toEqual({ text: 'id: must be a UUID' });
    expect(csvProblemLine({ problem: 'no field' })).toEqual({ text: 'no field' });
  });
});
