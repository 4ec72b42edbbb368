import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Address, number];
export type AllowList = Cidr[];

/** Cloud metadata endpoints: refused even when an allow-list CIDR covers them. */
const ALWAYS_REFUSED = ['169.254.169.254', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString());

/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): some stacks route it to the embedded IPv4. */
const IPV4_COMPATIBLE: Cidr = ipaddr.parseCIDR('::/96');

/** `WEBHOOK_ALLOW_CIDRS` ("127.0.0.1/32, 10.0.0.0/8") parsed; a bad entry stops the caller at boot. */
export function parseAllowList(cidrs: string | undefined): Cidr[] {
  if (!cidrs) return [];
  return cidrs
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      try {
        return c.includes('/') ? ipaddr.parseCIDR(c) : ([ipaddr.parse(c), ipaddr.parse(c).kind() === 'ipv4' ? 32 : 128] as Cidr);
      } catch {
        throw new Error(`WEBHOOK_ALLOW_CIDRS: "${c}" is not an IP address or CIDR`);
      }
    });
}

/** Parses an IP literal (brackets allowed); IPv4-mapped IPv6 (::ffff:a.b.c.d) becomes IPv4. */
export function parseIp(host: string): Address | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return null;
  const addr = ipaddr.parse(bare);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/**
 * The address when it is in ::/96 other than :: and ::1 (IPv4-compatible IPv6), read before
 * parseIp's IPv4 mapping (ipaddr.js reports ::a.b.c.d as IPv4-mapped too).
 */
function ipv4Compatible(host: string): ipaddr.IPv6 | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.IPv6.isValid(bare)) return null;
  let v6 = ipaddr.IPv6.parse(bare);
  // ipaddr.js reads the dotted form ::a.b.c.d as ::ffff:a.b.c.d: undo that when "ffff" is not written.
  if (bare.includes('.') && !/ffff/i.test(bare) && v6.parts[5] === 0xffff) v6 = new ipaddr.IPv6([...v6.parts.slice(0, 5), 0, ...v6.parts.slice(6)]);
  const [hi, lo] = v6.parts.slice(6);
  if (!v6.match(IPV4_COMPATIBLE[0], IPV4_COMPATIBLE[1]) || (hi === 0 && lo <= 1)) return null;
  return v6;
}

function inList(addr: Address, list: Cidr[]): boolean {
  return list.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/**
 * Why `ip` may not be connected to, or null when it may. Checked on the resolved address at
 * connect time (custom `lookup`) and on IP literals, so DNS rebinding cannot slip through.
 */
export function refusalReason(ip: string, allow: Cidr[]): string | null {
  const addr = parseIp(ip);
  if (!addr) return `${ip} is not an IP address`;
  const normalized = addr.toNormalizedString();
  if (ALWAYS_REFUSED.includes(normalized)) return `${ip} is a cloud metadata address`;
  // Only public unicast passes: loopback, private, link-local, CGNAT, unique-local, multicast,
  // unspecified, reserved and the IPv6 ranges that embed IPv4 (NAT64, 6to4, Teredo) are refused.
  const compatible = ipv4Compatible(ip);
  if (compatible) return inList(compatible, allow) ? null : `${ip} is a ${describe('ipv4Compatible')} address`;
  const range = addr.range();
  const refused = range !== 'unicast';
  if (!refused) return null;
  if (inList(addr, allow)) return null;
  return `${ip} is a ${describe(range)} address`;
}

function describe(range: string): string {
  switch (range) {
    case 'carrierGradeNat':
      return 'carrier-grade NAT';
    case 'linkLocal':
      return 'link-local';
    case 'uniqueLocal':
      return 'unique-local';
    case 'ipv4Compatible':
      return 'IPv4-compatible IPv6 (::/96)';
    default:
      return range.replace(/([A-Z])/g, ' $1').toLowerCase();
  }
}
