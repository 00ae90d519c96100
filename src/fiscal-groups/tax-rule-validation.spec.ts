import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { TaxRuleDto } from './dto/fiscal-group.dto.js';
import { normalizeTaxMatrix, TAX_RULE_FIELDS, validateTaxMatrix, validateTaxRule } from './tax-rule-validation.js';

const rule = (overrides: Record<string, unknown> = {}) => ({
  NCM: '22021000',
  CEST: '0300700',
  CST_ICMS: '60',
  ICMS_rate: 18,
  CST_PIS: '04',
  PIS_rate: 1.65,
  CST_COFINS: '04',
  COFINS_rate: 7.6,
  ...overrides,
});

const fields = (key: string, value: unknown) => validateTaxRule(key, value, `taxMatrix.${key}`).map((detail) => detail.field);

describe('validateTaxRule', () => {
  it('accepts a complete rule, with and without the optional fields', () => {
    expect(validateTaxRule('22021000', rule(), 'm')).toEqual([]);
    expect(
      validateTaxRule(
        '22021000',
        rule({ CFOP: '5405', CST_IBSCBS: '000', cClassTrib: '000001', IBS_UF_rate: 0.1, IBS_Mun_rate: 0, CBS_rate: 0.9 }),
        'm',
      ),
    ).toEqual([]);
    expect(validateTaxRule('2202', rule({ NCM: '2202', CEST: '' }), 'm')).toEqual([]);
  });

  it.each([
    ['a key of 1 digit', '2', rule({ NCM: '2' })],
    ['a key of 9 digits', '220210001', rule({ NCM: '220210001' })],
    ['a key with letters', '2202A', rule({ NCM: '2202A' })],
  ])('refuses %s', (_label, key, value) => {
    expect(fields(key, value)).toContain(`taxMatrix.${key}`);
  });

  it.each([
    ['NCM different from its key', { NCM: '22021090' }, 'NCM'],
    ['CEST of 6 digits', { CEST: '030070' }, 'CEST'],
    ['CST_ICMS of 1 digit', { CST_ICMS: '6' }, 'CST_ICMS'],
    ['CST_ICMS of 4 digits', { CST_ICMS: '0600' }, 'CST_ICMS'],
    ['CST_ICMS as a number', { CST_ICMS: 60 }, 'CST_ICMS'],
    ['CST_PIS of 3 digits', { CST_PIS: '004' }, 'CST_PIS'],
    ['CST_COFINS of 1 digit', { CST_COFINS: '4' }, 'CST_COFINS'],
    ['a negative rate', { ICMS_rate: -1 }, 'ICMS_rate'],
    ['a rate above 100', { PIS_rate: 100.01 }, 'PIS_rate'],
    ['a rate with 5 decimals', { COFINS_rate: 7.60001 }, 'COFINS_rate'],
    ['a rate as text', { ICMS_rate: '18' }, 'ICMS_rate'],
    ['CFOP of 3 digits', { CFOP: '540' }, 'CFOP'],
    ['CST_IBSCBS of 2 digits', { CST_IBSCBS: '00' }, 'CST_IBSCBS'],
    ['cClassTrib of 5 digits', { cClassTrib: '00000' }, 'cClassTrib'],
    ['a CBS rate out of range', { CBS_rate: 101 }, 'CBS_rate'],
    ['an unknown property', { ICMS: 18 }, 'ICMS'],
  ])('refuses %s', (_label, overrides, field) => {
    expect(fields('22021000', rule(overrides))).toEqual([`taxMatrix.22021000.${field}`]);
  });

  it('names every missing required field', () => {
    expect(fields('22021000', { NCM: '22021000' })).toEqual(
      ['CEST', 'CST_ICMS', 'ICMS_rate', 'CST_PIS', 'PIS_rate', 'CST_COFINS', 'COFINS_rate'].map((name) => `taxMatrix.22021000.${name}`),
    );
  });

  it('says why, in the words of the rule', () => {
    expect(validateTaxRule('2202', rule({ NCM: '2202', CEST: null, CST_ICMS: 6, PIS_rate: 1e-7, CFOP: null, ICMS: 1 }), 'm')).toEqual([
      { field: 'm.ICMS', problem: 'is not a TaxRule property' },
      { field: 'm.CEST', problem: 'is required' },
      { field: 'm.CST_ICMS', problem: 'must be 2 digits (CST) or 3 digits (origin + CST, or CSOSN)' },
      { field: 'm.PIS_rate', problem: 'must be a number from 0 to 100 with at most 4 decimals' },
    ]);
    expect(validateTaxRule('2', rule({ NCM: '22021000' }), 'm')).toEqual([
      { field: 'm', problem: 'matrix keys must be NCM codes of 2 to 8 digits' },
      { field: 'm.NCM', problem: 'must equal its matrix key "2"' },
    ]);
  });

  it("takes the goods' origin (orig) as one digit from 0 to 8", () => {
    expect(validateTaxRule('22021000', rule({ orig: '2' }), 'm')).toEqual([]);
    for (const orig of ['9', '02', 2, ''])
      expect(validateTaxRule('22021000', rule({ orig }), 'm')).toEqual([{ field: 'm.orig', problem: 'must be one digit from 0 to 8' }]);
  });

  it('refuses a rule that is not an object', () => {
    expect(fields('22021000', 'x')).toEqual(['taxMatrix.22021000']);
    expect(fields('22021000', [])).toEqual(['taxMatrix.22021000']);
  });
});

describe('TAX_RULE_FIELDS', () => {
  it('lists the properties of TaxRuleDto in its order, required where the DTO requires them', () => {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(TaxRuleDto, '', true, false);
    const names = [...new Set(metadata.map((entry) => entry.propertyName))];
    const optional = new Set(
      metadata.filter((entry) => entry.type === ValidationTypes.CONDITIONAL_VALIDATION).map((entry) => entry.propertyName),
    );
    expect(TAX_RULE_FIELDS.map((field) => [field.name, field.required])).toEqual(names.map((name) => [name, !optional.has(name)]));
  });
});

describe('validateTaxMatrix', () => {
  it('accepts an empty matrix and reports every bad rule at once', () => {
    expect(validateTaxMatrix({})).toEqual([]);
    const problems = validateTaxMatrix({ '22021000': rule({ ICMS_rate: 200 }), '2203': rule({ NCM: '2203', CST_PIS: 'x' }) });
    expect(problems.map((detail) => detail.field).sort()).toEqual(['taxMatrix.22021000.ICMS_rate', 'taxMatrix.2203.CST_PIS']);
  });

  it('refuses a matrix that is not an object', () => {
    expect(validateTaxMatrix([])).toHaveLength(1);
    expect(validateTaxMatrix(null)).toHaveLength(1);
  });
});

describe('a rate', () => {
  const rateProblems = (value: unknown) => validateTaxRule('22021000', rule({ ICMS_rate: value }), 'm');
  it.each([0, 18, 1.65, 7.6, 3.2, 0.0001, 99.9999, 100])('accepts %p', (value) => expect(rateProblems(value)).toEqual([]));
  it.each([-0.01, 100.0001, 0.00001, Number.NaN, Number.POSITIVE_INFINITY, 1e-7, '1'])('refuses %p', (value) =>
    expect(rateProblems(value)).toEqual([{ field: 'm.ICMS_rate', problem: 'must be a number from 0 to 100 with at most 4 decimals' }]),
  );
});

describe('ICMS_base_reduction (pRedBC)', () => {
  const reductionProblems = (CST_ICMS: string, ICMS_base_reduction: unknown = 33.33) =>
    validateTaxRule('22021000', rule({ CST_ICMS, ICMS_base_reduction }), 'taxMatrix.22021000');
  const REFUSED = [
    {
      field: 'taxMatrix.22021000.ICMS_base_reduction',
      problem: 'is allowed only with CST_ICMS 20 or 70 (or origin + CST: 020, 170...) or CSOSN 900',
    },
  ];

  it.each(['20', '70', '020', '070', '120', '870', '900'])('is allowed with CST_ICMS %s', (cst) =>
    expect(reductionProblems(cst)).toEqual([]),
  );
  it.each(['00', '10', '30', '40', '41', '50', '51', '60', '90', '000', '060', '101', '102', '201', '500', '200', '700', '920'])(
    'is refused with CST_ICMS %s, naming the rule and the field',
    (cst) => expect(reductionProblems(cst)).toEqual(REFUSED),
  );
  it.each([0, 41.67, 61.11, 100])('accepts %p with CST 20', (value) => expect(reductionProblems('20', value)).toEqual([]));
  it.each([-1, 100.5, 33.33333, '33.33'])('refuses %p as a rate', (value) =>
    expect(reductionProblems('20', value)).toEqual([
      { field: 'taxMatrix.22021000.ICMS_base_reduction', problem: 'must be a number from 0 to 100 with at most 4 decimals' },
    ]),
  );
});

describe('FCP_rate', () => {
  const fcpProblems = (FCP_rate: unknown) => validateTaxRule('22021000', rule({ FCP_rate }), 'm');
  it.each([0, 1, 2, 0.5, 3.9999, 4])('accepts %p', (value) => expect(fcpProblems(value)).toEqual([]));
  it.each([-0.5, 4.0001, 5, 18, 1.00001, '2'])('refuses %p', (value) =>
    expect(fcpProblems(value)).toEqual([{ field: 'm.FCP_rate', problem: 'must be a number from 0 to 4 with at most 4 decimals' }]),
  );
});

describe('normalizeTaxMatrix', () => {
  it('orders keys and properties and drops null optional fields', () => {
    const normalized = normalizeTaxMatrix({
      '2203': { ...rule({ NCM: '2203' }), CFOP: null } as never,
      '1905': rule({ NCM: '1905' }) as never,
    });
    expect(Object.keys(normalized)).toEqual(['1905', '2203']);
    expect('CFOP' in normalized['2203']!).toBe(false);
  });
});
