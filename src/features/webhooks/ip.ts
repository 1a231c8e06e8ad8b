/**
 * IP addresses that a webhook must never reach (decision 0037): private, loopback, link-local (cloud
 * metadata lives at 169.254.169.254), carrier-grade NAT, multicast, reserved and documentation ranges,
 * and IPv6 forms that embed an IPv4 address: IPv4-mapped, IPv4-translated, IPv4-compatible and NAT64
 * are refused whatever they embed, 6to4 when what it embeds is refused (decision 0053). Pure parsing, no DNS.
 */

interface Range4 {
  base: number;
  bits: number;
  label: string;
}

const v4 = (text: string): number => text.split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
const range4 = (cidr: string, label: string): Range4 => {
  const [base = "", bits = "32"] = cidr.split("/");
  return { base: v4(base), bits: Number(bits), label: `${label} (${cidr})` };
};

const BLOCKED_V4: readonly Range4[] = [
  range4("0.0.0.0/8", "a 'this network' address"),
  range4("10.0.0.0/8", "a private address"),
  range4("100.64.0.0/10", "a carrier-grade NAT address"),
  range4("127.0.0.0/8", "a loopback address"),
  range4("169.254.0.0/16", "a link-local or cloud metadata address"),
  range4("172.16.0.0/12", "a private address"),
  range4("192.0.0.0/24", "a reserved address"),
  range4("192.0.2.0/24", "a documentation address"),
  range4("192.88.99.0/24", "a reserved relay address"),
  range4("192.168.0.0/16", "a private address"),
  range4("198.18.0.0/15", "a benchmarking address"),
  range4("198.51.100.0/24", "a documentation address"),
  range4("203.0.113.0/24", "a documentation address"),
  range4("224.0.0.0/4", "a multicast address"),
  range4("240.0.0.0/4", "a reserved address"),
];

/** Four dotted decimal numbers 0-255, no leading zeros (the only spelling accepted), as a 32-bit number. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)) {
    return null;
  }
  return v4(text);
}

const inRange4 = (address: number, range: Range4): boolean =>
  range.bits === 0 || Math.floor(address / 2 ** (32 - range.bits)) === Math.floor(range.base / 2 ** (32 - range.bits));

/** Why an IPv4 address (as a number) is refused, or null when it is public. */
function blockedV4(address: number): string | null {
  return BLOCKED_V4.find((range) => inRange4(address, range))?.label ?? null;
}

/** Eight 16-bit groups; `::` and a dotted IPv4 tail are understood, brackets dropped, zone ids refused. */
export function parseIPv6(text: string): number[] | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!bare.includes(":") || bare.includes("%") || !/^[0-9a-f:.]+$/i.test(bare)) return null;
  let body = bare;
  const lastColon = bare.lastIndexOf(":");
  if (bare.slice(lastColon + 1).includes(".")) {
    // A dotted IPv4 tail ("::ffff:1.2.3.4") is the last two groups written another way.
    const embedded = parseIPv4(bare.slice(lastColon + 1));
    if (embedded === null) return null;
    const hex = (word: number) => word.toString(16);
    body = `${bare.slice(0, lastColon + 1)}${hex(Math.floor(embedded / 65536))}:${hex(embedded % 65536)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const group = (part: string) => (part === "" ? [] : part.split(":"));
  const head = group(halves[0] ?? "");
  const rest = halves.length === 2 ? group(halves[1] ?? "") : [];
  const named = head.length + rest.length;
  if (!head.concat(rest).every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  if (halves.length === 1 ? named !== 8 : named > 7) return null;
  const zeros = new Array<number>(8 - named).fill(0);
  const words = [...head.map((g) => Number.parseInt(g, 16)), ...zeros, ...rest.map((g) => Number.parseInt(g, 16))];
  return words;
}

const startsWith6 = (words: readonly number[], prefix: readonly number[], bits: number): boolean => {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const shift = 16 - take;
    if ((words[i] ?? 0) >> shift !== (prefix[i] ?? 0) >> shift) return false;
  }
  return true;
};

const embeddedV4 = (high: number, low: number): number => high * 65536 + low;

/** Why an IPv6 address (eight groups) is refused, or null when it is public. */
function blockedV6(w: readonly number[]): string | null {
  const allZero = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (allZero(0, 8)) return "the unspecified address (::)";
  if (allZero(0, 7) && w[7] === 1) return "a loopback address (::1)";
  const inner = (label: string, address: number) => {
    const reason = blockedV4(address);
    return reason ? `${label} of ${reason}` : null;
  };
  // Forms that carry an IPv4 address in their last 32 bits (decision 0053). A public IPv4 address is
  // written as itself, so each whole range is refused; the message names the embedded address's range
  // when that one is private, so the buyer sees which address it really is.
  const embedded = (kind: string, range: string) =>
    inner(`${kind} form`, embeddedV4(w[6] ?? 0, w[7] ?? 0)) ??
    `${kind} address (${range}; write the IPv4 address itself)`;
  // ::ffff:a.b.c.d (IPv4-mapped, ::ffff:0:0/96) and ::ffff:0:a.b.c.d (IPv4-translated, ::ffff:0:0:0/96).
  if (allZero(0, 5) && w[5] === 0xffff) return embedded("an IPv4-mapped", "::ffff:0:0/96");
  if (allZero(0, 4) && w[4] === 0xffff && w[5] === 0) return embedded("an IPv4-translated", "::ffff:0:0:0/96");
  if (allZero(0, 6)) return "a deprecated IPv4-compatible address (::/96)";
  if (startsWith6(w, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return embedded("a NAT64", "64:ff9b::/96");
  if (startsWith6(w, [0x64, 0xff9b, 1], 48)) return "a local NAT64 address (64:ff9b:1::/48)";
  if (startsWith6(w, [0x2002], 16)) return inner("a 6to4 form", embeddedV4(w[1] ?? 0, w[2] ?? 0));
  const ranges: [number[], number, string][] = [
    [[0x100, 0, 0, 0], 64, "a discard-only address (100::/64)"],
    [[0x2001, 0], 32, "a Teredo tunnel address (2001::/32)"],
    [[0x2001, 0xdb8], 32, "a documentation address (2001:db8::/32)"],
    [[0xfc00], 7, "a unique local (private) address (fc00::/7)"],
    [[0xfe80], 10, "a link-local address (fe80::/10)"],
    [[0xfec0], 10, "a site-local address (fec0::/10)"],
    [[0xff00], 8, "a multicast address (ff00::/8)"],
  ];
  return ranges.find(([prefix, bits]) => startsWith6(w, prefix, bits))?.[2] ?? null;
}

/**
 * Why `address` (IPv4 dotted decimal, or IPv6 with or without brackets) must not be reached, or null when
 * it is a public address. Text that is neither is refused too: DNS answers and URL hosts are never that.
 */
export function blockedAddressReason(address: string): string | null {
  const four = parseIPv4(address);
  if (four !== null) return blockedV4(four);
  const six = parseIPv6(address);
  if (six !== null) return blockedV6(six);
  return "not an IP address";
}
