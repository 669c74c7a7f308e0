import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { viewAddresses } from '../../src/view/addresses.ts';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, scopeid: 0 }) as NetworkInterfaceInfo;

const MACHINE = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.168.1.20', 'IPv4'), nic('fe80::1', 'IPv6'), nic('2001:db8::20', 'IPv6')],
  wlan0: [nic('10.0.0.7', 'IPv4')],
};

describe('viewAddresses', () => {
  it.each<[string, NodeJS.Dict<NetworkInterfaceInfo[]>, string[]]>([
    ['0.0.0.0', MACHINE, ['192.168.1.20', '10.0.0.7', '127.0.0.1']],
    ['::', MACHINE, ['192.168.1.20', '[2001:db8::20]', '10.0.0.7', '127.0.0.1']],
    // A machine with no network but loopback: the loopback address, which at least this machine opens.
    ['0.0.0.0', { lo: MACHINE.lo }, ['127.0.0.1']],
    ['0.0.0.0', {}, ['127.0.0.1']],
    // A host named is the address printed, as given.
    ['127.0.0.1', MACHINE, ['127.0.0.1']],
    ['192.168.1.20', MACHINE, ['192.168.1.20']],
    ['::1', MACHINE, ['[::1]']],
    ['my-box.local', MACHINE, ['my-box.local']],
  ])('listening on %s: %j', (host, interfaces, expected) => {
    expect(viewAddresses(host, interfaces)).toEqual(expected);
  });
});
