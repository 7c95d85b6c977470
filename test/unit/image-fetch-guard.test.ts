import { afterEach, describe, expect, it } from 'vitest';
import { embeddedIPv4, isPrivateAddress } from '../../src/net/address-guard.js';
import { checkImageUrl } from '../../src/net/fetch-image.js';

afterEach(() => {
  delete process.env.IMAGE_FETCH_ALLOW_PRIVATE;
});

describe('the SSRF guard of imageUrl', () => {
  it('reads the IPv4 address an IPv6 one carries: mapped, translated, compatible, NAT64, 6to4, Teredo (server and inverted client)', () => {
    expect(embeddedIPv4('::ffff:127.0.0.1')).toEqual(['127.0.0.1']);
    expect(embeddedIPv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIPv4('::ffff:0:a00:1')).toEqual(['10.0.0.1']);
    expect(embeddedIPv4('::7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIPv4('64:ff9b::192.168.1.1')).toEqual(['192.168.1.1']);
    expect(embeddedIPv4('2002:a9fe:a9fe:1::5')).toEqual(['169.254.169.254']);
    expect(embeddedIPv4('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['65.54.227.120', '192.0.2.45']);
    expect(embeddedIPv4('2606:4700::1111')).toEqual([]);
  });

  it('judges such an address by the IPv4 address it leads to', () => {
    const refused = [
      '::7f00:1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::', '2002:a00:1:1234::5', '2002:c0a8:101::',
      '64:ff9b::a00:1', '64:ff9b::8.8.8.8', '64:ff9b:1::a00:1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:a00:1::1',
      '::', '::1', 'fe80::1%eth0', 'fec0::1', 'fd12::1', '2001:db8::1', '3fff::1', '100::1', 'ff02::1', '192.88.99.1',
    ];
    expect(refused.filter((address) => !isPrivateAddress(address))).toEqual([]);
    expect(['2002:808:808::1', '::ffff:8.8.8.8', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2606:4700::1111', '2a00:1450::1'].filter(isPrivateAddress)).toEqual([]);
  });

  it('refuses literal addresses in a URL before any connection, in the forms the URL parser normalises them to', () => {
    for (const url of ['http://[::127.0.0.1]/x.png', 'http://[::ffff:127.0.0.1]:8080/', 'http://[2002:7f00:1::]/', 'http://[64:ff9b::10.0.0.1]/', 'http://0x7f.1/', 'http://2130706433/']) {
      expect(() => checkImageUrl(url), url).toThrow(/must point to a public address/);
    }
    process.env.IMAGE_FETCH_ALLOW_PRIVATE = 'true';
    expect(checkImageUrl('http://[::127.0.0.1]/x.png').hostname).toBe('[::7f00:1]');
  });
});
