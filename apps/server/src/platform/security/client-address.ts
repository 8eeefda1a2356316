import { isIPv6 } from 'node:net';

/**
 * The client as the per-address limits count it. An IPv4 address is one client. An
 * IPv6 address is counted by its /64 network: one subscriber usually holds a whole /64
 * and can use any address in it, so counting single addresses would let them start
 * afresh with each new one. IPv4 written as IPv6 (`::ffff:192.0.2.1`) is IPv4.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
