/**
 * Webhook endpoints reach only public addresses (decision 0037): the URL on
 * its own, then its DNS answers through a fake `resolveHost`, and the DNS-over-HTTPS resolver with a
 * fake fetch (no network here).
 */
import { describe, expect, it } from "vitest";
import { blockedAddressReason, parseIPv6 } from "../ip";
import {
  addressesFromDohAnswer,
  checkWebhookTarget,
  checkWebhookUrl,
  type DohFetch,
  dohResolver,
  type ResolveHost,
  webhookEnvironment,
} from "../ssrf";

const refused = (url: string, environment: "production" | "development" = "production") => {
  const result = checkWebhookUrl(url, environment);
  return result.ok ? null : result.message;
};

describe("endpoint URLs on their own", () => {
  it("accepts public https URLs, normalized", () => {
    const result = checkWebhookUrl("  https://CRM.Example.com/hooks/leads?src=shop ", "production");
    expect(result).toEqual({
      ok: true,
      url: "https://crm.example.com/hooks/leads?src=shop",
      host: "crm.example.com",
      ipLiteral: false,
      developmentLoopback: false,
    });
    for (const url of [
      "https://hooks.example.co.uk:8443/x",
      "https://8.8.8.8/",
      "https://[2606:4700::1111]/",
      "https://bücher.de/",
    ]) {
      expect(refused(url), url).toBeNull();
    }
  });

  it("refuses anything but https, and plain http except to localhost while developing", () => {
    expect(refused("http://crm.example.com/")).toBe("The endpoint must use https://.");
    expect(refused("http://localhost:8799/")).toBe("The endpoint must use https://.");
    expect(refused("http://crm.example.com/", "development")).toMatch(/plain http:\/\/ only to localhost/);
    expect(refused("http://192.168.1.5:8799/", "development")).toMatch(/plain http:\/\/ only to localhost/);
    for (const url of [
      "http://localhost:8799/",
      "http://127.0.0.1:8799/",
      "http://[::1]:8799/",
      "https://localhost/",
    ]) {
      expect(checkWebhookUrl(url, "development"), url).toMatchObject({ ok: true, developmentLoopback: true });
    }
    for (const url of [
      "ftp://example.com/",
      "javascript:alert(1)",
      "example.com/hooks",
      "https:example.com",
      "https:\\\\example.com",
      "",
    ]) {
      expect(refused(url), url).toMatch(/full URL, starting with https:\/\//);
    }
    expect(refused(`https://example.com/${"a".repeat(2000)}`)).toMatch(/longer than 2000/);
  });

  it("refuses credentials in the URL", () => {
    expect(refused("https://user:pass@crm.example.com/")).toMatch(/user name or password/);
    expect(refused("https://token@crm.example.com/")).toMatch(/user name or password/);
  });

  it("refuses local, internal, metadata and malformed host names", () => {
    expect(refused("https://localhost/")).toMatch(/local or internal name/);
    expect(refused("https://metadata.google.internal/computeMetadata/v1/")).toMatch(/cloud metadata service/);
    expect(refused("https://metadata/")).toMatch(/cloud metadata service/);
    for (const host of [
      "printer.local",
      "db.internal",
      "api.localhost",
      "nas.home.arpa",
      "x.svc",
      "router.lan",
      "a.test",
      "1.0.0.127.in-addr.arpa",
    ]) {
      expect(refused(`https://${host}/`), host).toMatch(/local or internal name/);
    }
    expect(refused("https://intranet-server/")).toMatch(/not a public host name/);
    expect(refused("https://exa_mple.com/")).toMatch(/not a valid host name/);
    expect(refused("https://-bad.example.com/")).toMatch(/not a valid host name/);
    expect(refused("https://crm.example.com./")).toMatch(/without the trailing dot/);
  });

  it("refuses ports below 1024 other than 443", () => {
    expect(refused("https://crm.example.com:22/")).toMatch(/port 443 or a port from 1024/);
    expect(refused("https://crm.example.com:80/")).toMatch(/port 443/);
    expect(refused("https://crm.example.com:443/")).toBeNull();
    expect(refused("https://crm.example.com:1024/")).toBeNull();
  });

  it.each([
    ["10.0.0.1", "a private address (10.0.0.0/8)"],
    ["172.16.0.1", "a private address (172.16.0.0/12)"],
    ["172.31.255.255", "a private address (172.16.0.0/12)"],
    ["192.168.1.1", "a private address (192.168.0.0/16)"],
    ["127.0.0.1", "a loopback address (127.0.0.0/8)"],
    ["127.8.9.10", "a loopback address (127.0.0.0/8)"],
    ["169.254.169.254", "a link-local or cloud metadata address (169.254.0.0/16)"],
    ["0.0.0.0", "a 'this network' address (0.0.0.0/8)"],
    ["100.64.0.1", "a carrier-grade NAT address (100.64.0.0/10)"],
    ["100.100.100.200", "a carrier-grade NAT address (100.64.0.0/10)"],
    ["224.0.0.1", "a multicast address (224.0.0.0/4)"],
    ["255.255.255.255", "a reserved address (240.0.0.0/4)"],
  ])("refuses the IPv4 address %s: %s", (address, reason) => {
    expect(refused(`https://${address}/`)).toBe(
      `${address} is ${reason}: webhooks go only to public internet addresses.`,
    );
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it("refuses private IPv6 addresses and IPv4-mapped forms of private IPv4 ones", () => {
    expect(refused("https://[::1]/")).toMatch(/loopback address \(::1\)/);
    expect(refused("https://[::]/")).toMatch(/unspecified/);
    expect(refused("https://[fd12:3456::1]/")).toMatch(/unique local \(private\) address \(fc00::\/7\)/);
    expect(refused("https://[fc00::1]/")).toMatch(/fc00::\/7/);
    expect(refused("https://[fe80::1]/")).toMatch(/link-local address \(fe80::\/10\)/);
    expect(refused("https://[febf::1]/")).toMatch(/fe80::\/10/);
    expect(refused("https://[::ffff:127.0.0.1]/")).toMatch(/IPv4-mapped form of a loopback address/);
    expect(refused("https://[::ffff:a9fe:a9fe]/")).toMatch(/IPv4-mapped form of a link-local/);
    expect(refused("https://[0:0:0:0:0:ffff:10.1.2.3]/")).toMatch(/IPv4-mapped form of a private address/);
    expect(refused("https://[64:ff9b::c0a8:1]/")).toMatch(/NAT64 form of a private address/);
    expect(refused("https://[2002:7f00:1::]/")).toMatch(/6to4 form of a loopback/);
    expect(refused("https://[ff02::1]/")).toMatch(/multicast/);
    expect(refused("https://[fe80::1%25eth0]/")).toMatch(/full URL/);
  });

  it.each([
    // IPv4-mapped (::ffff:0:0/96)
    ["::ffff:127.0.0.1", "an IPv4-mapped form of a loopback address (127.0.0.0/8)"],
    ["::ffff:7f00:1", "an IPv4-mapped form of a loopback address (127.0.0.0/8)"],
    ["::ffff:8.8.8.8", "an IPv4-mapped address (::ffff:0:0/96; write the IPv4 address itself)"],
    // IPv4-translated (::ffff:0:0:0/96), the form production accepted before decision 0053
    ["::ffff:0:7f00:1", "an IPv4-translated form of a loopback address (127.0.0.0/8)"],
    ["::ffff:0:10.0.0.1", "an IPv4-translated form of a private address (10.0.0.0/8)"],
    ["::ffff:0:a9fe:a9fe", "an IPv4-translated form of a link-local or cloud metadata address (169.254.0.0/16)"],
    ["::ffff:0:808:808", "an IPv4-translated address (::ffff:0:0:0/96; write the IPv4 address itself)"],
    // NAT64, well-known (64:ff9b::/96) and local (64:ff9b:1::/48)
    ["64:ff9b::7f00:1", "a NAT64 form of a loopback address (127.0.0.0/8)"],
    ["64:ff9b::8.8.8.8", "a NAT64 address (64:ff9b::/96; write the IPv4 address itself)"],
    ["64:ff9b:1::a00:1", "a local NAT64 address (64:ff9b:1::/48)"],
    ["64:ff9b:1:ffff::8.8.8.8", "a local NAT64 address (64:ff9b:1::/48)"],
    // IPv4-compatible (::/96, deprecated)
    ["::127.0.0.1", "a deprecated IPv4-compatible address (::/96)"],
    ["::8.8.8.8", "a deprecated IPv4-compatible address (::/96)"],
    ["::a00:1", "a deprecated IPv4-compatible address (::/96)"],
    // 6to4 (2002::/16) carrying a refused IPv4 address
    ["2002:7f00:1::", "a 6to4 form of a loopback address (127.0.0.0/8)"],
    ["2002:a00:1::1", "a 6to4 form of a private address (10.0.0.0/8)"],
    ["2002:c0a8:101::", "a 6to4 form of a private address (192.168.0.0/16)"],
    ["2002:a9fe:a9fe::", "a 6to4 form of a link-local or cloud metadata address (169.254.0.0/16)"],
    ["2002:6440:1::", "a 6to4 form of a carrier-grade NAT address (100.64.0.0/10)"],
    // Teredo embeds an obfuscated IPv4 address: the whole range is refused
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "a Teredo tunnel address (2001::/32)"],
  ])("refuses the IPv4-embedding IPv6 address %s: %s", (address, reason) => {
    // The URL parser writes the address its own way (::ffff:0:7f00:1 for ::ffff:0:127.0.0.1); the reason stays.
    expect(refused(`https://[${address}]/`)).toContain(` is ${reason}: webhooks go only to public internet addresses.`);
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it("still accepts public IPv6 addresses, 6to4 with a public IPv4 address among them", () => {
    expect(refused("https://[2606:4700:4700::1111]/")).toBeNull();
    expect(refused("https://[2002:808:808::1]/")).toBeNull();
    expect(refused("https://[2a00:1450:4001:80b::200e]/")).toBeNull();
  });

  it("refuses decimal, octal, hex and shortened spellings of IPv4 addresses", () => {
    for (const host of [
      "2130706433",
      "0x7f000001",
      "0x7f.1",
      "017700000001",
      "0177.0.0.1",
      "127.1",
      "127.0.1",
      "0x08080808",
      "134744072",
    ]) {
      expect(refused(`https://${host}/`), host).toMatch(/four decimal numbers/);
    }
  });

  it("reads IPv6 text in every spelling", () => {
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("[::1]")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseIPv6("1:2:3:4:5:6:7::")).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIPv6("1:2:3:4:5:6:1.2.3.4")).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    for (const bad of ["1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", ":1", "1.2.3.4", "::1%eth0", "::ffff:1.2.3.256"]) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
    expect(blockedAddressReason("2606:4700:4700::1111")).toBeNull();
    expect(blockedAddressReason("crm.example.com")).toBe("not an IP address");
  });
});

describe("endpoint URLs and their DNS answers", () => {
  const dns: Record<string, string[]> = {
    "crm.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "rebind.example.com": ["93.184.215.14", "10.0.0.7"],
    "six.example.com": ["fd00::5"],
    "mapped.example.com": ["::ffff:169.254.169.254"],
    "empty.example.com": [],
  };
  const calls: string[] = [];
  const resolveHost: ResolveHost = async (host) => {
    calls.push(host);
    if (host === "down.example.com") throw new Error("timeout");
    return dns[host] ?? [];
  };

  it("accepts a host whose every address is public", async () => {
    expect(await checkWebhookTarget("https://crm.example.com/hooks", "production", resolveHost)).toMatchObject({
      ok: true,
    });
  });

  it("refuses a host when any one of its addresses is private", async () => {
    const cases: [string, RegExp][] = [
      ["rebind.example.com", /resolves to 10\.0\.0\.7, a private address \(10\.0\.0\.0\/8\)/],
      ["six.example.com", /resolves to fd00::5, a unique local/],
      ["mapped.example.com", /IPv4-mapped form of a link-local or cloud metadata address/],
      ["empty.example.com", /has no address in DNS/],
      ["down.example.com", /could not be looked up just now/],
    ];
    for (const [host, message] of cases) {
      const result = await checkWebhookTarget(`https://${host}/`, "production", resolveHost);
      expect(result.ok, host).toBe(false);
      expect(result.ok ? "" : result.message, host).toMatch(message);
    }
  });

  it("does not resolve what the URL check already refused, IP literals, or localhost while developing", async () => {
    calls.length = 0;
    expect((await checkWebhookTarget("http://crm.example.com/", "production", resolveHost)).ok).toBe(false);
    expect((await checkWebhookTarget("https://8.8.8.8/", "production", resolveHost)).ok).toBe(true);
    expect((await checkWebhookTarget("http://localhost:8799/", "development", resolveHost)).ok).toBe(true);
    expect(calls).toEqual([]);
  });

  it("treats anything but APP_ENV=development as production", () => {
    expect(webhookEnvironment("development")).toBe("development");
    expect(webhookEnvironment("production")).toBe("production");
    expect(webhookEnvironment(undefined)).toBe("production");
    expect(webhookEnvironment("staging")).toBe("production");
  });
});

describe("the DNS-over-HTTPS resolver", () => {
  const answers: Record<string, unknown> = {
    "crm.example.com A": {
      Status: 0,
      Answer: [
        { name: "crm.example.com", type: 5, data: "edge.example.net." },
        { name: "edge.example.net", type: 1, data: "93.184.215.14" },
      ],
    },
    "crm.example.com AAAA": { Status: 0, Answer: [{ name: "edge.example.net", type: 28, data: "fd00::1" }] },
    "gone.example.com A": { Status: 3 },
    "gone.example.com AAAA": { Status: 3 },
    "broken.example.com A": { Status: 2 },
    "broken.example.com AAAA": { Status: 0 },
  };
  const requests: { url: string; accept: string | undefined }[] = [];
  const fakeFetch: DohFetch = async (url, init) => {
    requests.push({ url, accept: init.headers.accept });
    const query = new URL(url).searchParams;
    const body = answers[`${query.get("name")} ${query.get("type")}`];
    return { ok: body !== undefined, status: body === undefined ? 500 : 200, json: async () => body };
  };

  it("asks for A and AAAA records as JSON and returns the addresses, CNAMEs skipped", async () => {
    const resolve = dohResolver(fakeFetch);
    expect(await resolve("crm.example.com")).toEqual(["93.184.215.14", "fd00::1"]);
    expect(requests.map((request) => request.url)).toEqual([
      "https://cloudflare-dns.com/dns-query?name=crm.example.com&type=A",
      "https://cloudflare-dns.com/dns-query?name=crm.example.com&type=AAAA",
    ]);
    expect(requests.every((request) => request.accept === "application/dns-json")).toBe(true);
    const checked = await checkWebhookTarget("https://crm.example.com/", "production", resolve);
    expect(checked.ok ? "" : checked.message).toMatch(/resolves to fd00::1/);
  });

  it("answers no addresses for a name that does not exist, and fails on a DNS or HTTP error", async () => {
    const resolve = dohResolver(fakeFetch);
    expect(await resolve("gone.example.com")).toEqual([]);
    await expect(resolve("broken.example.com")).rejects.toThrow(/status 2/);
    await expect(resolve("unknown.example.com")).rejects.toThrow(/HTTP 500/);
    expect(addressesFromDohAnswer({ Status: 0 }, "A")).toEqual([]);
    expect(() => addressesFromDohAnswer(null, "A")).toThrow();
  });
});
