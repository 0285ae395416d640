import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/features/webhooks/address-policy.ts';
import { BlockedTargetError, resolveTarget } from '../../src/features/webhooks/safe-dispatcher.ts';
import { validateWebhookUrl } from '../../src/features/webhooks/webhook-url.ts';
import { toAppError } from '../../src/http/errors.ts';

/** Every address a webhook must never reach, with the category the classifier names. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::127.0.0.1', 'loopback'],
  ['64:ff9b::169.254.169.254', 'metadata'],
  ['64:ff9b::a00:1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::', 'private'],
  ['fd00:ec2::254', 'metadata'],
  ['fc00::1', 'unique-local'],
  ['fdff:ffff::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.0.1',
  '11.0.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('address classifier', () => {
  it.each(REFUSED)('refuses %s as %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it.each(ALLOWED)('allows public %s', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  it('treats non-addresses as invalid, never public', () => {
    for (const text of ['', 'example.com', '1.2.3', '1.2.3.4.5', '256.0.0.1', 'gggg::1', '1::2::3'])
      expect(classifyAddress(text)).toBe('invalid');
  });
});

describe('connect-time resolution', () => {
  const fakeDns = (answers: Record<string, string[]>) => async (name: string) =>
    (answers[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it.each(REFUSED.filter(([a]) => !a.includes('%') && !a.startsWith('[')))(
    'refuses a literal %s',
    async (address) => {
      await expect(resolveTarget(address, { allowPrivate: false })).rejects.toBeInstanceOf(
        BlockedTargetError,
      );
    },
  );

  it('refuses a name when any of its addresses is refused (no partial trust)', async () => {
    const resolver = fakeDns({
      'inward.example': ['10.0.0.5'],
      'mixed.example': ['93.184.216.34', '127.0.0.1'],
      'mapped.example': ['::ffff:169.254.169.254'],
      'fine.example': ['93.184.216.34', '2606:2800:220:1::1'],
    });
    await expect(resolveTarget('inward.example', { allowPrivate: false, resolver })).rejects.toThrow(
      /inward\.example resolves to 10\.0\.0\.5, which is a private address/,
    );
    await expect(resolveTarget('mixed.example', { allowPrivate: false, resolver })).rejects.toThrow(
      /loopback/,
    );
    await expect(resolveTarget('mapped.example', { allowPrivate: false, resolver })).rejects.toThrow(
      /metadata/,
    );
    await expect(resolveTarget('empty.example', { allowPrivate: false, resolver })).rejects.toThrow(
      /did not resolve/,
    );
    expect(await resolveTarget('fine.example', { allowPrivate: false, resolver })).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    // The development switch lifts the policy.
    expect(await resolveTarget('inward.example', { allowPrivate: true, resolver })).toEqual({
      address: '10.0.0.5',
      family: 4,
    });
  });

  it('WEBHOOK_ALLOW_LOOPBACK lets localhost and loopback literals reach loopback, and nothing else', async () => {
    const resolver = fakeDns({
      localhost: ['127.0.0.1', '::1'],
      'rebound.example': ['127.0.0.1'],
      'inward.example': ['10.0.0.5'],
    });
    const loopback = { allowPrivate: false, allowLoopback: true, resolver };
    expect(await resolveTarget('localhost', loopback)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await resolveTarget('127.0.0.1', loopback)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await resolveTarget('::1', loopback)).toEqual({ address: '::1', family: 6 });
    // A public-looking name that resolves to loopback is still refused (no rebinding through it).
    await expect(resolveTarget('rebound.example', loopback)).rejects.toThrow(/loopback address/);
    await expect(resolveTarget('inward.example', loopback)).rejects.toThrow(/private address/);
    for (const address of ['10.0.0.1', '169.254.169.254', '192.168.1.1', '0.0.0.0', 'fe80::1'])
      await expect(resolveTarget(address, loopback), address).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it('resolves localhost through the system resolver and refuses it', async () => {
    await expect(resolveTarget('localhost', { allowPrivate: false })).rejects.toThrow(
      /localhost resolves to .* loopback/,
    );
  });
});

describe('registration check', () => {
  const refused = (url: string, allowPrivate = false) => {
    try {
      validateWebhookUrl(url, allowPrivate);
    } catch (err) {
      // The domain error, as the API answers it.
      const answer = toAppError(err);
      return answer?.status === 400 ? answer.message : 'not a 400';
    }
    return null;
  };

  it('accepts public https URLs and normalizes them', () => {
    expect(validateWebhookUrl('https://Hooks.Example.com/postkit?x=1', false)).toBe(
      'https://hooks.example.com/postkit?x=1',
    );
    expect(validateWebhookUrl('https://93.184.216.34:8443/h', false)).toBe('https://93.184.216.34:8443/h');
  });

  it('refuses non-https, credentials, fragments and garbage with a clear 400', () => {
    expect(refused('http://hooks.example.com/')).toMatch(/https/);
    expect(refused('ftp://hooks.example.com/')).toMatch(/https/);
    expect(refused('https://user:pw@hooks.example.com/')).toMatch(/credentials/);
    expect(refused('https://hooks.example.com/#x')).toMatch(/fragment/);
    expect(refused('not a url')).toMatch(/absolute URL/);
    expect(refused(`https://hooks.example.com/${'a'.repeat(2100)}`)).toMatch(/2048/);
  });

  it('refuses literal inward addresses in every spelling the URL parser accepts', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
      'https://10.0.0.1/',
      'https://100.64.1.1/',
      'https://[fe80::1]/',
      'https://0.0.0.0/',
    ])
      expect(refused(url), url).toMatch(/address; webhooks only reach public hosts/);
  });

  it('refuses local and single-label names', () => {
    for (const url of [
      'https://localhost/',
      'https://api.localhost/',
      'https://printer.local/',
      'https://metadata.google.internal/',
      'https://redis/',
    ])
      expect(refused(url), url).not.toBeNull();
  });

  it('WEBHOOK_ALLOW_LOOPBACK lets http and https to this machine in, and guards every other address', () => {
    const loopbackOnly = (url: string) => {
      try {
        validateWebhookUrl(url, false, true);
      } catch (err) {
        return toAppError(err)?.message ?? 'not a 400';
      }
      return null;
    };
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost:3000/hook',
      'http://LOCALHOST./hook',
      'http://[::1]:8080/hook',
      'https://127.0.0.1/hook',
      'http://127.0.0.2/hook',
    ])
      expect(loopbackOnly(url), url).toBeNull();
    for (const url of ['http://hooks.example.com/', 'http://10.0.0.1/', 'http://192.168.1.10:8080/'])
      expect(loopbackOnly(url), url).toMatch(/plain http:\/\/ is allowed only to this machine/);
    for (const url of [
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[fe80::1]/',
      'https://0.0.0.0/',
    ])
      expect(loopbackOnly(url), url).toMatch(/address; webhooks only reach public hosts/);
    for (const url of ['https://api.localhost/', 'https://printer.local/', 'https://redis/'])
      expect(loopbackOnly(url), url).not.toBeNull();
    // Off (the default), loopback is refused like any inward address.
    expect(refused('http://127.0.0.1:8080/hook')).toMatch(/https/);
    expect(refused('https://localhost/hook')).toMatch(/local or private name/);
  });

  it('lets http and loopback through only with WEBHOOK_ALLOW_PRIVATE', () => {
    expect(refused('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(refused('http://localhost/hook', true)).toBeNull();
    expect(refused('ftp://127.0.0.1/', true)).toMatch(/https/);
  });
});

describe('embedded IPv4 forms (property)', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  const ipv4 = fc.tuple(octet, octet, octet, octet);
  const hex = (a: number, b: number) => ((a << 8) | b).toString(16);

  it('judges every IPv4-mapped spelling exactly like the IPv4 address it carries', () => {
    fc.assert(
      fc.property(ipv4, ([a, b, c, d]) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const expected = classifyAddress(v4);
        expect(classifyAddress(`::ffff:${v4}`)).toBe(expected);
        expect(classifyAddress(`::ffff:${hex(a, b)}:${hex(c, d)}`)).toBe(expected);
        expect(classifyAddress(`0:0:0:0:0:ffff:${hex(a, b)}:${hex(c, d)}`)).toBe(expected);
        expect(classifyAddress(`64:ff9b::${v4}`)).toBe(expected);
        expect(classifyAddress(`2002:${hex(a, b)}:${hex(c, d)}::1`)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('never calls an address public when its embedded IPv4 address is not', () => {
    fc.assert(
      fc.property(ipv4, ([a, b, c, d]) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        if (classifyAddress(v4) !== 'public') expect(classifyAddress(`::${v4}`)).not.toBe('public');
        // The deprecated compatible form is never a legitimate target at all.
        if (a > 0) expect(classifyAddress(`::${v4}`)).not.toBe('public');
      }),
      { numRuns: 1000 },
    );
  });
});
