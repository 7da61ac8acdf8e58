/**
 * The rate-limit key of a client address. Written forms of one address (or of one subscriber) must
 * share one budget: `::ffff:203.0.113.9` is `203.0.113.9`, `203.000.113.009` is `203.0.113.9`, and an
 * IPv6 client is keyed by its /64, the block a single subscriber or host is usually given (it can
 * pick any address inside it). Anything that does not parse as an address is null, and the caller
 * falls back to the socket address.
 */

/** Dotted-quad IPv4 with decimal parts (leading zeros read as decimal, not octal), or null. */
function ipv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^[0-9]{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (with `::`, an embedded IPv4 tail, a zone), or null. */
function ipv6(text: string): number[] | null {
  const address = text.replace(/%[0-9A-Za-z._~-]+$/, "");
  if (!/^[0-9A-Fa-f:.]+$/.test(address)) return null;
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const pieces = half.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const tail = ipv4(piece);
        if (!tail) return null;
        out.push((tail[0]! << 8) | tail[1]!, (tail[2]! << 8) | tail[3]!);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  // An embedded IPv4 may only end the address.
  if (halves[0]!.includes(".")) return null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : null;
}

/** `[2001:db8::1]:443`, `203.0.113.9:5678` → the address alone; anything else unchanged. */
function withoutPort(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::[0-9]{1,5})?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^([0-9.]+):[0-9]{1,5}$/.exec(text);
  return v4WithPort ? v4WithPort[1]! : text;
}

/**
 * Keys of addresses seen lately: every request asks for its client's key, and a client sends many.
 * Bounded (emptied when full, and only short texts: no address is longer) so that a flood of
 * distinct or huge forwarded values cannot grow it.
 */
const KNOWN_KEYS_MAX = 4096;
const KNOWN_KEY_CHARS = 64;
const knownKeys = new Map<string, string | null>();

/** The canonical key for a client address, or null when `raw` is not an IPv4 or IPv6 address. */
export function clientKey(raw: string): string | null {
  const known = knownKeys.get(raw);
  if (known !== undefined) return known;
  const key = canonicalKey(raw);
  if (raw.length > KNOWN_KEY_CHARS) return key;
  if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.clear();
  knownKeys.set(raw, key);
  return key;
}

/** A dotted quad already in canonical form (no leading zeros, each part at most 255): its own key. */
const CANONICAL_IPV4 = /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

function canonicalKey(raw: string): string | null {
  // What a proxy writes nearly always: one test instead of a parse (a client new to the process pays it).
  if (CANONICAL_IPV4.test(raw)) return raw;
  const text = withoutPort(raw.trim());
  const v4 = ipv4(text);
  if (v4) return v4.join(".");
  const groups = ipv6(text);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 client itself (dual-stack sockets report it so).
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
