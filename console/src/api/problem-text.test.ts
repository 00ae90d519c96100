import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { toProblem } from './client';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe("an error answer's message", () => {
  it("is the service's sentence in English", () => {
    const problem = toProblem(409, {
      error: 'ORDER_CLOSED',
      message: 'Order ORD-1 is DELIVERED',
      details: [{ field: 'orderId', problem: 'closed', orderId: 'ORD-1', status: 'DELIVERED' }],
    });
    expect(problem.message).toBe('Order ORD-1 is DELIVERED');
  });

  it("is the code's message in pt-BR, with the details' typed fields, and the status's when the code is unknown", async () => {
    await i18next.changeLanguage('pt-BR');
    const closed = toProblem(409, {
      error: 'ORDER_CLOSED',
      message: 'Order ORD-1 is DELIVERED',
      details: [{ field: 'orderId', problem: 'closed', orderId: 'ORD-1', status: 'DELIVERED' }],
    });
    expect(closed.message).toBe('O pedido ORD-1 está encerrado (DELIVERED); nada foi gravado nem enviado.');
    expect(closed.serverMessage).toBe('Order ORD-1 is DELIVERED');
    expect(toProblem(404, { error: 'NOT_FOUND', message: 'No person has the id u-9' }).message).toBe(
      'Não encontrado: pode ter sido removido.',
    );
    expect(toProblem(409, { error: 'SOMETHING_NEW', message: 'A newer failure' }).message).toBe(
      'Isto conflita com os dados atuais (HTTP 409).',
    );
    expect(toProblem(418, { error: 'TEAPOT', message: 'I am a teapot' }).message).toBe('A requisição falhou (HTTP 418).');
  });
});
