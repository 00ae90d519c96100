import { clientNetworkOf } from './sign-in-throttle.js';

describe('clientNetworkOf', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(clientNetworkOf('192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetworkOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts every address of an IPv6 /64 as one client, however it is written', () => {
    const network = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:DB8:0:1:ffff:ffff:ffff:fffe',
      '2001:0db8:0000:0001:0:0:0:9',
      '2001:db8::1:0:0:0:2',
      '2001:db8:0:1::1%eth0',
    ]) {
      expect({ address, network: clientNetworkOf(address) }).toEqual({ address, network });
    }
    expect(clientNetworkOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(clientNetworkOf('::1')).toBe('0:0:0:0::/64');
    expect(clientNetworkOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
