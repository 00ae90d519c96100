import { canonicalStatusOf, matchKey, resolveStatusLabel } from './status-match.js';

describe('status label matching', () => {
  it('ignores case, accents, surrounding spaces and the difference between space, _ and -', () => {
    expect(matchKey('  Pedido_Recibido ')).toBe('pedido recibido');
    expect(matchKey('EN-PREPARACIÓN')).toBe('en preparacion');
    expect(matchKey('en   camino')).toBe('en camino');
    expect(matchKey('IN_PREPARATION')).toBe('in preparation');
  });

  it('tries the status values first, then the aliases', () => {
    const aliases = new Map([
      ['por asignar', 'READY' as const],
      ['delivered', 'CANCELLED' as const],
    ]);
    expect(resolveStatusLabel('Por Asignar', aliases)).toBe('READY');
    // A status value is never shadowed by an alias of the same match form.
    expect(resolveStatusLabel('Delivered', aliases)).toBe('DELIVERED');
    expect(resolveStatusLabel('in-preparation', aliases)).toBe('IN_PREPARATION');
    expect(resolveStatusLabel('Esperando Pago', aliases)).toBeUndefined();
    expect(canonicalStatusOf('Por Asignar')).toBeUndefined();
  });
});
