import fc from 'fast-check';
import { validateSync } from 'class-validator';
import { CreateFiscalGroupDto, TaxRuleDto } from '../../fiscal-groups/dto/fiscal-group.dto.js';
import { TAX_RULE_FIELDS } from '../../fiscal-groups/tax-rule-validation.js';
import { compileFlatDtoRules } from './flat-dto-rules.js';
import { flattenValidationErrors } from './validation.js';

const FIELDS = TAX_RULE_FIELDS.map((field) => field.name);
const value = fc.oneof(
  fc.constantFrom('22021000', '2202', '0300700', '', '00', '060', '5102', '000', '000001', 'x', ' 01', null, undefined),
  fc.constantFrom(0, 18, 0.65, 100, 100.01, -1, 1e-7, 7.60001, Number.NaN),
  fc.string({ maxLength: 9 }),
  fc.double(),
  fc.boolean(),
);

describe('compileFlatDtoRules', () => {
  const taxRuleProblems = compileFlatDtoRules(TaxRuleDto);

  it('finds what class-validator finds, with its messages, one problem per property', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...FIELDS), value), (rule) => {
        const expected = flattenValidationErrors(
          validateSync(Object.assign(new TaxRuleDto(), rule), { forbidUnknownValues: true, stopAtFirstError: true }),
          {},
          'm',
        );
        expect(taxRuleProblems(rule, 'm')).toEqual(expected);
      }),
      { numRuns: 500, seed: 20261122 },
    );
  });

  it('names the problems as the DTO says them', () => {
    expect(taxRuleProblems({ NCM: '2202', CST_ICMS: 6, ICMS_rate: 101, CFOP: null }, 'rule')).toEqual([
      { field: 'rule.CEST', problem: 'is required' },
      { field: 'rule.CST_ICMS', problem: 'must be 2 digits (CST) or 3 digits (origin + CST, or CSOSN)' },
      { field: 'rule.ICMS_rate', problem: 'must be a number from 0 to 100 with at most 4 decimals' },
      { field: 'rule.CST_PIS', problem: 'is required' },
      { field: 'rule.PIS_rate', problem: 'is required' },
      { field: 'rule.CST_COFINS', problem: 'is required' },
      { field: 'rule.COFINS_rate', problem: 'is required' },
    ]);
  });

  it('refuses a DTO with nested objects', () => {
    expect(() => compileFlatDtoRules(CreateFiscalGroupDto)).toThrow('is not a flat check');
  });
});
