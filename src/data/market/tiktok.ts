import { cumulativeWeights, type CumulativeWeights, type Rng } from '../random.js';
import { allocateAdCounts, type ShopSeed } from './advertisers.js';
import { compactSlug, fill } from './names.js';
import { DAY, EARLIEST_AD, HOUR, isoDate } from './time.js';
import { ARTIST_FIRST, ARTIST_LAST, BIOS, CAPTIONS, CATEGORY_HASHTAGS, GENERIC_HASHTAGS, TRACK_WORDS } from './tiktok-words.js';
import { CATEGORIES, CATEGORY_WEIGHTS, COUNTRY_WEIGHTS, FIRST_NAMES, HOME_LANGUAGE, VOCABULARY, type Category, type Language } from './words.js';

// The synthetic TikTok library: accounts (some of them shops' brand accounts), their ads and organic videos
// with heavy-tailed views, music, pins and 30 days of page snapshots.

export type TikTokProfileSeed = {
  id: string;
  handle: string;
  name: string;
  bio: string;
  bioUrl: string | null;
  accountType: 'business' | 'creator' | 'personal';
  secUid: string;
  followers: number;
  following: number;
  pageCreation: number;
  shop: ShopSeed | null;
  category: Category;
  home: string;
  language: Language;
  // Aggregates of the profile's items:
  totalTikToks: number;
  newTikToks: number;
  percentAds: number;
  views: number;
  likes: number;
};

export type TikTokMusicSeed = { id: string; title: string; author: string; weight: number };

export type TikTokItemSeed = {
  id: string;
  profile: TikTokProfileSeed;
  type: 'ad' | 'organic';
  status: 'active' | 'inactive' | 'unknown';
  publishedAt: number;
  createdAt: number;
  updatedAt: number;
  indexedAt: number;
  lastSeenAt: number;
  mediaType: 'image' | 'video' | 'carousel' | 'unknown';
  thumbnailUrl: string | null;
  mediaUrl: string | null;
  videoUrl: string | null;
  imageUrls: string[];
  durationSec: number | null;
  description: string;
  language: string;
  category: Category;
  hashtags: string[];
  countries: string[];
  music: TikTokMusicSeed | null;
  shop: ShopSeed | null;
  views: number;
  likes: number;
  comments: number;
  saves: number;
  shares: number;
  reposts: number;
  engagementRate: number;
  rank: number;
  rankPercent: number;
  relevanceScore: number;
  deltaRanks: [number | null, number | null, number | null, number | null];
  pin: TikTokPinSeed | null;
};

export type TikTokPinSeed = { isCurrent: boolean; firstPinnedAt: number; lastPinnedAt: number; lastUnpinnedAt: number | null };

export type TikTokSnapshotSeed = {
  profile: TikTokProfileSeed;
  date: string;
  recordedAt: number;
  adsCount: number;
  organicCount: number;
  totalTikToks: number;
  dailyViews: number;
  dailyLikes: number;
  dailyFollowers: number;
};

const INT_MAX = 2_147_483_647;
const SNAPSHOT_DAYS = 30;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const clampInt = (x: number) => Math.min(INT_MAX, Math.max(0, Math.round(x)));
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A 19-digit TikTok id: always above 2^53, so it only survives as text. */
function tiktokId(rng: Rng, taken: Set<string>, lead = '7'): string {
  let id: string;
  do id = lead + rng.digits(18);
  while (taken.has(id));
  taken.add(id);
  return id;
}

function categoryOfShop(rng: Rng, shop: ShopSeed): Category {
  const matching = CATEGORIES.filter((category) => VOCABULARY[category].taxonomy === shop.categories[0]);
  return matching.length ? rng.pick(matching) : rng.weighted(CATEGORY_WEIGHTS);
}

function uniqueHandle(base: string, taken: Set<string>, rng: Rng): string {
  let handle = base.slice(0, 24) || 'user';
  while (taken.has(handle)) handle = `${base.slice(0, 20)}${rng.int(2, 999)}`;
  taken.add(handle);
  return handle;
}

function makeProfiles(rng: Rng, count: number, shops: ShopSeed[], asOf: number): TikTokProfileSeed[] {
  const ids = new Set<string>();
  const handles = new Set<string>();
  // Brand accounts belong to the better-known shops.
  const brandShops = rng.shuffle(shops.filter((shop) => shop.monthlyVisits > 3000).slice()).slice(0, Math.round(count * 0.55));
  const profiles: TikTokProfileSeed[] = [];
  for (let i = 0; i < count; i++) {
    const shop = i < brandShops.length ? brandShops[i] : null;
    const home = shop?.countryCode ?? rng.weighted(COUNTRY_WEIGHTS);
    const local = HOME_LANGUAGE[home];
    const language: Language = local && rng.chance(0.85) ? local : 'en';
    const category = shop ? categoryOfShop(rng, shop) : rng.weighted(CATEGORY_WEIGHTS);
    const first = rng.pick(FIRST_NAMES);
    const topic = rng.pick(CATEGORY_HASHTAGS[category]);
    const handle = shop
      ? uniqueHandle(rng.chance(0.7) ? compactSlug(shop.name) : `${compactSlug(shop.name)}_official`, handles, rng)
      : uniqueHandle(rng.weighted([[`${first.toLowerCase()}.${topic}`, 3], [`${first.toLowerCase()}_${rng.int(1, 99)}`, 2], [`${topic}with${first.toLowerCase()}`, 2]] as const), handles, rng);
    const vocabulary = VOCABULARY[category];
    const values = {
      brand: shop?.name ?? first,
      product: rng.pick(vocabulary.products),
      benefit: rng.pick(vocabulary.benefits),
      collection: rng.pick(vocabulary.collections),
      category: category.toLowerCase(),
    };
    const popularity = rng.logNormal(1, 0.8);
    const followers = Math.min(90_000_000, Math.round(rng.logNormal(shop ? 9000 : 20000, 1.9) * popularity) + 10);
    let secUid = 'MS4wLjABAAAA';
    for (let c = 0; c < 64; c++) secUid += B64[rng.uint32() & 63];
    profiles.push({
      id: tiktokId(rng, ids, rng.pick(['6', '7'])),
      handle,
      name: shop ? shop.name : `${first} | ${rng.pick(CATEGORY_HASHTAGS[category])}`,
      bio: fill(shop ? rng.pick(BIOS.slice(0, 3)) : rng.pick(BIOS.slice(2)), values),
      bioUrl: shop ? `https://${shop.domain}` : rng.chance(0.4) ? `https://linktr.ee/${handle}` : null,
      accountType: shop ? 'business' : rng.chance(0.8) ? 'creator' : 'personal',
      secUid,
      followers,
      following: Math.round(rng.logNormal(180, 1.2)),
      pageCreation: Math.round(rng.float(Date.UTC(2016, 8, 1), asOf - 400 * DAY)),
      shop,
      category,
      home,
      language,
      totalTikToks: 0,
      newTikToks: 0,
      percentAds: 0,
      views: 0,
      likes: 0,
    });
  }
  return profiles;
}

function makeTracks(rng: Rng, count: number): TikTokMusicSeed[] {
  const ids = new Set<string>();
  return Array.from({ length: count }, () => {
    const words = rng.shuffle(TRACK_WORDS.slice()).slice(0, rng.int(1, 3));
    return {
      id: tiktokId(rng, ids, rng.pick(['6', '7'])),
      title: words.join(' '),
      author: `${rng.pick(ARTIST_FIRST)} ${rng.pick(ARTIST_LAST)}`,
      weight: rng.pareto(1, 1.1),
    };
  });
}

function publishTime(rng: Rng, type: 'ad' | 'organic', profile: TikTokProfileSeed, asOf: number): number {
  const earliest = Math.max(profile.pageCreation, EARLIEST_AD);
  const days = type === 'ad' ? rng.logNormal(35, 1.1) : rng.logNormal(90, 1.3);
  return Math.round(Math.max(earliest, asOf - Math.min(days, 1500) * DAY - rng.float(HOUR, 20 * HOUR)));
}

function media(rng: Rng, id: string): Pick<TikTokItemSeed, 'mediaType' | 'thumbnailUrl' | 'mediaUrl' | 'videoUrl' | 'imageUrls' | 'durationSec'> {
  const mediaType = rng.weighted([['video', 80], ['carousel', 15], ['image', 4], ['unknown', 1]] as const);
  const base = `/media/tiktok/${id}`;
  if (mediaType === 'unknown') return { mediaType, thumbnailUrl: null, mediaUrl: null, videoUrl: null, imageUrls: [], durationSec: null };
  if (mediaType === 'video') {
    const videoUrl = `${base}.mp4`;
    return { mediaType, thumbnailUrl: `${base}-cover.jpg`, mediaUrl: videoUrl, videoUrl, imageUrls: [], durationSec: round(Math.min(600, Math.max(5, rng.logNormal(24, 0.7))), 1) };
  }
  const imageUrls = Array.from({ length: mediaType === 'image' ? 1 : rng.int(2, 10) }, (_, i) => `${base}-${i + 1}.jpg`);
  return { mediaType, thumbnailUrl: imageUrls[0], mediaUrl: imageUrls[0], videoUrl: null, imageUrls, durationSec: null };
}

function hashtagsFor(rng: Rng, profile: TikTokProfileSeed): string[] {
  const tags = new Set<string>(rng.shuffle(CATEGORY_HASHTAGS[profile.category].slice()).slice(0, rng.int(1, 3)));
  for (let n = rng.int(0, 3); n > 0; n--) tags.add(rng.weighted(GENERIC_HASHTAGS));
  if (profile.shop && rng.chance(0.5)) tags.add(compactSlug(profile.shop.name));
  return [...tags];
}

function makeItem(rng: Rng, profile: TikTokProfileSeed, ids: Set<string>, music: CumulativeWeights<TikTokMusicSeed>, originals: Map<TikTokProfileSeed, TikTokMusicSeed>, brandShops: Map<Category, ShopSeed[]>, asOf: number): TikTokItemSeed {
  const id = tiktokId(rng, ids);
  const type = rng.chance(profile.shop ? 0.55 : 0.12) ? 'ad' : 'organic';
  const status = type === 'ad' ? rng.weighted([['active', 40], ['inactive', 59], ['unknown', 1]] as const) : rng.weighted([['active', 94], ['inactive', 5], ['unknown', 1]] as const);
  const publishedAt = publishTime(rng, type, profile, asOf);
  const lastSeenAt = status === 'active' ? asOf : Math.round(Math.min(publishedAt + Math.max(1, rng.logNormal(20, 1)) * DAY, asOf - rng.float(HOUR, 23 * HOUR)));
  const createdAt = Math.min(lastSeenAt, publishedAt + Math.round(rng.float(0.5 * HOUR, 3 * DAY)));
  const updatedAt = Math.max(createdAt, lastSeenAt - Math.round(rng.float(0, 2 * DAY)));
  const indexedAt = Math.min(asOf, updatedAt + Math.round(rng.float(60_000, 30 * 60_000)));

  const vocabulary = VOCABULARY[profile.category];
  const language = rng.chance(0.9) ? profile.language : 'en';
  const hashtags = hashtagsFor(rng, profile);
  const caption = fill(rng.pick(CAPTIONS[language as Language]), {
    product: rng.pick(vocabulary.products),
    brand: profile.shop?.name ?? profile.name.split(' | ')[0],
    benefit: rng.pick(vocabulary.benefits),
  });
  const description = `${caption} ${hashtags.map((tag) => `#${tag}`).join(' ')}`;

  let track: TikTokMusicSeed | null = null;
  if (rng.chance(0.97)) {
    if (type === 'organic' && rng.chance(0.35)) {
      track = originals.get(profile) ?? null;
      if (!track) {
        track = { id: tiktokId(rng, ids, rng.pick(['6', '7'])), title: `original sound - ${profile.handle}`, author: profile.name, weight: 0 };
        originals.set(profile, track);
      }
    } else {
      track = rng.weightedFrom(music);
    }
  }

  const countries = type === 'ad'
    ? [...new Set([rng.chance(0.75) ? profile.home : rng.weighted(COUNTRY_WEIGHTS), ...rng.weightedSample(COUNTRY_WEIGHTS, rng.int(0, 3))])]
    : [profile.home];
  const shop = profile.shop
    ? (rng.chance(type === 'ad' ? 0.92 : 0.6) ? profile.shop : null)
    : rng.chance(type === 'ad' ? 0.3 : 0.04) && brandShops.get(profile.category)?.length ? rng.pick(brandShops.get(profile.category)!) : null;

  const reachFactor = Math.sqrt(profile.followers / 15000) * (type === 'ad' ? 1.6 : 1);
  const drawn = rng.logNormal(5000, 2.1) * reachFactor;
  const views = Math.max(30, Math.round(drawn / (1 + drawn / 400_000_000)));
  const likes = Math.round(views * Math.min(0.3, Math.max(0.002, rng.logNormal(type === 'ad' ? 0.025 : 0.05, 0.6))));
  const comments = clampInt(likes * rng.logNormal(0.015, 0.8));
  const shares = clampInt(likes * rng.logNormal(0.02, 0.9));
  const saves = clampInt(likes * rng.logNormal(0.04, 0.8));
  const engagementRate = round(((likes + comments + shares) / views) * 100, 2);
  return {
    id,
    profile,
    type,
    status,
    publishedAt,
    createdAt,
    updatedAt,
    indexedAt,
    lastSeenAt,
    ...media(rng, id),
    description,
    language,
    category: profile.category,
    hashtags,
    countries,
    music: track,
    shop,
    views,
    likes,
    comments,
    saves,
    shares,
    reposts: clampInt(shares * rng.float(0, 0.3)),
    engagementRate,
    rank: 0,
    rankPercent: 0,
    relevanceScore: round(Math.min(1, 0.6 * Math.tanh(engagementRate / 10) + (0.4 * Math.log10(views + 1)) / 9), 4),
    deltaRanks: [null, null, null, null],
    pin: null,
  };
}

/** Ranks, pins and aggregates of one profile's items. */
function finishProfile(rng: Rng, profile: TikTokProfileSeed, items: TikTokItemSeed[], asOf: number): void {
  const byViews = items.slice().sort((a, b) => b.views - a.views || (a.id < b.id ? -1 : 1));
  byViews.forEach((item, i) => {
    item.rank = i + 1;
    item.rankPercent = Math.round(((i + 1) * 1000) / items.length) / 10;
    item.deltaRanks = [3, 7, 14, 30].map((days) => (asOf - item.publishedAt >= days * DAY ? Math.round(rng.normal() * Math.sqrt(days) * 0.8) : null)) as TikTokItemSeed['deltaRanks'];
  });
  const pinnable = items.filter((item) => item.type === 'organic' && item.status === 'active');
  if (pinnable.length && rng.chance(0.6)) {
    const chosen = rng.shuffle(pinnable.slice()).slice(0, rng.int(1, Math.min(3, pinnable.length)) + rng.int(0, 2));
    chosen.forEach((item, i) => {
      const isCurrent = i < 3 && rng.chance(0.8);
      const firstPinnedAt = Math.round(rng.float(item.publishedAt, asOf - HOUR));
      const lastPinnedAt = rng.chance(0.3) ? Math.round(rng.float(firstPinnedAt, asOf - HOUR)) : firstPinnedAt;
      const lastUnpinnedAt = isCurrent
        ? lastPinnedAt > firstPinnedAt ? Math.round(rng.float(firstPinnedAt, lastPinnedAt)) : null
        : Math.round(rng.float(lastPinnedAt, asOf));
      item.pin = { isCurrent, firstPinnedAt, lastPinnedAt, lastUnpinnedAt };
    });
  }
  profile.totalTikToks = items.length;
  profile.newTikToks = items.filter((item) => item.publishedAt >= asOf - 30 * DAY).length;
  profile.percentAds = Math.round((items.filter((item) => item.type === 'ad').length * 1000) / items.length) / 10;
  profile.views = items.reduce((sum, item) => sum + item.views, 0);
  profile.likes = items.reduce((sum, item) => sum + item.likes, 0);
}

/** Live on day `day` (start of the UTC day): published by its end and still up at its start. */
const liveOn = (item: TikTokItemSeed, day: number) => item.publishedAt < day + DAY && (item.status === 'active' || item.lastSeenAt >= day);

function snapshots(rng: Rng, profile: TikTokProfileSeed, items: TikTokItemSeed[], asOf: number): TikTokSnapshotSeed[] {
  const out: TikTokSnapshotSeed[] = [];
  for (let back = SNAPSHOT_DAYS - 1; back >= 0; back--) {
    const day = asOf - back * DAY;
    let adsCount = 0;
    let organicCount = 0;
    let totalTikToks = 0;
    for (const item of items) {
      if (item.publishedAt < day + DAY) totalTikToks++;
      if (!liveOn(item, day)) continue;
      if (item.type === 'ad') adsCount++;
      else organicCount++;
    }
    out.push({
      profile,
      date: isoDate(day / DAY),
      recordedAt: day + 3 * HOUR + Math.round(rng.float(0, 90 * 60_000)),
      adsCount,
      organicCount,
      totalTikToks,
      dailyViews: Math.round(profile.views * rng.float(0.001, 0.02)),
      dailyLikes: Math.round(profile.likes * rng.float(0.001, 0.02)),
      dailyFollowers: clampInt(profile.followers * rng.float(0, 0.004)),
    });
  }
  return out;
}

export type TikTokLibraryPlan = {
  profiles: TikTokProfileSeed[];
  /** Items per profile, in profile order. */
  itemCounts: number[];
  snapshotCount: number;
  /** The music catalogue's size (before the original sounds, which appear with the items). */
  trackCount: number;
  /**
   * Draws the items, pins and snapshots of profiles `start`..`end - 1`; call it on consecutive runs from 0.
   * `music` lists the tracks first used by the run: the whole catalogue with the first run, then the run's original sounds.
   */
  profilesBetween(start: number, end: number): { music: TikTokMusicSeed[]; profiles: TikTokProfileSeed[]; items: TikTokItemSeed[]; snapshots: TikTokSnapshotSeed[] };
};

/** Draws the profiles and the music catalogue; the items follow profile run by profile run. */
export function startTikTokLibrary(rng: Rng, itemCount: number, shops: ShopSeed[], asOf: number): TikTokLibraryPlan {
  const profileCount = Math.max(1, Math.round(itemCount / 10));
  const profiles = makeProfiles(rng.fork('profiles'), profileCount, shops, asOf);
  const music = makeTracks(rng.fork('music'), Math.max(1, Math.round(itemCount / 8)));
  const itemRng = rng.fork('items');
  const ids = new Set<string>([...profiles.map((p) => p.id), ...music.map((m) => m.id)]);
  const originals = new Map<TikTokProfileSeed, TikTokMusicSeed>();
  // Creators promote (partnership ads) the brands of their own niche.
  const brandShops = new Map<Category, ShopSeed[]>();
  for (const p of profiles) {
    if (!p.shop) continue;
    const list = brandShops.get(p.category);
    if (list) list.push(p.shop);
    else brandShops.set(p.category, [p.shop]);
  }
  const counts = allocateAdCounts(itemRng, profiles.length, itemCount);
  const weightedMusic = cumulativeWeights(music.map((track) => [track, track.weight] as const));
  const finishRng = rng.fork('pins');
  const snapshotRng = rng.fork('snapshots');
  let next = 0;
  return {
    profiles,
    itemCounts: counts,
    snapshotCount: profiles.length * SNAPSHOT_DAYS,
    trackCount: music.length,
    profilesBetween(start, end) {
      if (start !== next || end < start || end > profiles.length) throw new Error(`TikTok profiles must be drawn in order (expected ${next}, got ${start}..${end})`);
      next = end;
      const run = profiles.slice(start, end);
      const firstOriginal = originals.size;
      const items: TikTokItemSeed[] = [];
      const snapshotRows: TikTokSnapshotSeed[] = [];
      run.forEach((profile, i) => {
        const own = Array.from({ length: counts[start + i] }, () => makeItem(itemRng, profile, ids, weightedMusic, originals, brandShops, asOf));
        finishProfile(finishRng, profile, own, asOf);
        for (const row of snapshots(snapshotRng, profile, own, asOf)) snapshotRows.push(row);
        for (const item of own) items.push(item);
      });
      const newOriginals = [...originals.values()].slice(firstOriginal);
      return { music: start === 0 ? [...music, ...newOriginals] : newOriginals, profiles: run, items, snapshots: snapshotRows };
    },
  };
}
