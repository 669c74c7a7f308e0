import type { NetworkInterfaceInfo } from 'node:os';

/** Hosts that only this machine reaches: the view needs no token on them. */
export const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** Hosts that mean every address of the machine: no other machine can open a URL that names them. */
const EVERY_ADDRESS = ['0.0.0.0', '::', '[::]'];

/** `host` as a URL spells it: an IPv6 address in brackets. */
const inUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The addresses a view listening on `host` can be opened at, best first: for `0.0.0.0` (or `::`) the machine's own
 * addresses from `os.networkInterfaces()`, those other machines reach before loopback (IPv4 only for `0.0.0.0`;
 * no IPv6 link-local address, which needs a zone a URL cannot carry); any other host as given.
 */
export function viewAddresses(
  host: string,
  interfaces: NodeJS.Dict<readonly NetworkInterfaceInfo[]>,
): string[] {
  if (!EVERY_ADDRESS.includes(host)) return [inUrl(host)];
  const v6 = host !== '0.0.0.0';
  const all = Object.values(interfaces).flatMap((list) => list ?? []);
  const usable = all.filter(
    (i) => (i.family === 'IPv4' || (v6 && i.family === 'IPv6')) && !/^fe80:/i.test(i.address),
  );
  const outside = usable.filter((i) => !i.internal).map((i) => inUrl(i.address));
  return [...new Set([...outside, '127.0.0.1'])];
}
