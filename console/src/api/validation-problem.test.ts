import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { problemsByField } from '../forms/api-problems';
import { constraintOf, validationProblemText } from './validation-problem';

describe('validation problems in the reader’s language', () => {
  it('reads the constraint and its parameters from the validation library’s sentence', () => {
    expect(constraintOf('must be longer than or equal to 8 characters')).toEqual({ constraint: 'minLength', params: { count: '8' } });
    expect(constraintOf('must not be greater than 100')).toEqual({ constraint: 'max', params: { limit: '100' } });
    expect(constraintOf('each value in stores must be a string')).toEqual({ constraint: 'isString', params: {} });
    expect(constraintOf('property colour should not exist')).toEqual({ constraint: 'whitelist', params: { property: 'colour' } });
    expect(constraintOf('something the console never saw')).toBeUndefined();
  });

  it('keeps the service’s sentence in English and says it in Portuguese otherwise, never in English', async () => {
    expect(validationProblemText('must be an email')).toBe('must be an email');
    await i18next.changeLanguage('pt-BR');
    expect(validationProblemText('must be an email')).toBe('deve ser um endereço de e-mail');
    expect(validationProblemText('must not be greater than 100')).toBe('deve ser no máximo 100');
    expect(validationProblemText('must be one of the following values: ENRICHED, FAILED')).toBe('deve ser um destes: ENRICHED, FAILED');
    expect(validationProblemText('an English sentence nobody listed')).toBe('este valor foi recusado');
  });

  it('puts the translated problems at the form’s fields', async () => {
    await i18next.changeLanguage('pt-BR');
    const problem = {
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'x',
      details: [
        { field: 'ncm', problem: 'must match /^\\d{8}$/ regular expression' },
        { field: 'ncm', problem: 'should not be empty' },
      ],
    };
    expect(problemsByField(problem as never, ['ncm']).byField).toEqual({ ncm: 'não está no formato esperado; é obrigatório' });
  });
});
