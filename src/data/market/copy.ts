import type { Rng } from '../random.js';
import type { AdvertiserSeed } from './advertisers.js';
import { fill, slugify } from './names.js';
import {
  CLOSING_SENTENCES,
  CTA_DESCRIPTIONS,
  CTA_LINK_DESCRIPTIONS,
  CTAS,
  HOOK_TEMPLATES,
  NO_SHOP_CTAS,
  OFFER_SENTENCES,
  OFFERS,
  PRODUCT_SENTENCES,
  SEASONS,
  SPOKEN,
  TITLE_TEMPLATES,
  VOCABULARY,
} from './words.js';

// The creative of an ad: everything members of a duplicate group share (copy, landing page, video, hook).

export type MediaType = 'image' | 'video' | 'carousel' | 'dco' | 'unknown';
export type Segment = { start: number; end: number; text: string };
export type TranscriptSeed = { language: string; languageConfidence: number; segments: Segment[]; fullText: string };
export type HookSeed = { text: string; source: 'transcript' | 'ad_copy' | 'headline'; sourceDescription: string; isFallback: boolean };

export type Creative = {
  mediaType: MediaType;
  title: string | null;
  body: string;
  callToAction: string;
  landingPageUrl: string | null;
  landingPageDomain: string | null;
  ctaDescription: string | null;
  ctaLinkDescription: string | null;
  transcript: TranscriptSeed | null;
  hook: HookSeed | null;
};

const MEDIA_TYPES: readonly (readonly [MediaType, number])[] = [
  ['image', 50],
  ['video', 40],
  ['carousel', 8],
  ['dco', 1],
  ['unknown', 1],
];

const round1 = (x: number) => Math.round(x * 10) / 10;

function transcript(rng: Rng, advertiser: AdvertiserSeed, values: Record<string, string>): TranscriptSeed {
  const language = advertiser.language;
  const spoken = SPOKEN[language];
  const count = rng.int(2, 6);
  const lines = [rng.pick(spoken.openings), ...rng.shuffle(spoken.middles.slice()).slice(0, count - 2), rng.pick(spoken.closings)];
  let clock = 0;
  const segments = lines.map((line) => {
    const start = round1(clock);
    const end = round1(start + rng.float(1.6, 5.5));
    clock = end + rng.float(0, 0.4);
    return { start, end, text: fill(line, values) };
  });
  return {
    language,
    languageConfidence: Math.round(rng.float(0.7, 0.99) * 1000) / 1000,
    segments,
    fullText: segments.map((segment) => segment.text).join(' '),
  };
}

function hook(rng: Rng, title: string | null, sentences: string[], spoken: TranscriptSeed | null): HookSeed | null {
  if (!rng.chance(0.7)) return null;
  if (spoken && rng.chance(0.8)) {
    return { text: spoken.segments[0].text, source: 'transcript', sourceDescription: 'First spoken line of the video', isFallback: false };
  }
  if (title && rng.chance(0.15)) {
    return { text: title, source: 'headline', sourceDescription: 'Ad headline (no opening line found in the video or the copy)', isFallback: true };
  }
  return { text: sentences[0], source: 'ad_copy', sourceDescription: 'Opening line of the ad copy', isFallback: false };
}

export function makeCreative(rng: Rng, advertiser: AdvertiserSeed): Creative {
  const vocabulary = VOCABULARY[advertiser.category];
  const [benefit, benefit2] = rng.shuffle(vocabulary.benefits.slice());
  const hasShop = advertiser.domains.length > 0;
  const callToAction = rng.weighted(hasShop ? CTAS : NO_SHOP_CTAS);
  const values: Record<string, string> = {
    brand: advertiser.name,
    product: rng.pick(vocabulary.products),
    collection: rng.pick(vocabulary.collections),
    offer: rng.pick(OFFERS),
    season: rng.weighted(SEASONS),
    benefit,
    benefit2,
    cta: callToAction,
  };
  const mediaType = rng.weighted(MEDIA_TYPES);
  const title = rng.chance(0.96) ? fill(rng.pick(TITLE_TEMPLATES), values) : null;

  const sentences = [fill(rng.pick(HOOK_TEMPLATES), values), fill(rng.pick(PRODUCT_SENTENCES), values)];
  if (rng.chance(0.75)) sentences.push(fill(rng.pick(OFFER_SENTENCES), values));
  if (rng.chance(0.6)) sentences.push(fill(rng.pick(CLOSING_SENTENCES), values));
  if (!sentences.some((s) => s.includes(advertiser.name)) && rng.chance(0.8)) sentences.push(`Only at ${advertiser.name}.`);

  let landingPageUrl: string | null = null;
  let landingPageDomain: string | null = null;
  if (hasShop) {
    const domains = advertiser.domains;
    landingPageDomain = domains.length === 1 || rng.chance(0.8) ? domains[0] : rng.pick(domains.slice(1));
    const path = rng.chance(0.65) ? `products/${slugify(values.product)}` : `collections/${slugify(values.collection)}`;
    landingPageUrl = `https://${landingPageDomain}/${path}`;
  }
  const spoken = mediaType === 'video' && rng.chance(0.9) ? transcript(rng, advertiser, values) : null;
  return {
    mediaType,
    title,
    body: sentences.join(' '),
    callToAction,
    landingPageUrl,
    landingPageDomain,
    ctaDescription: rng.chance(0.92) ? fill(rng.pick(CTA_DESCRIPTIONS), values) : null,
    ctaLinkDescription: rng.chance(0.8) ? fill(rng.pick(CTA_LINK_DESCRIPTIONS), values) : null,
    transcript: spoken,
    hook: hook(rng, title, sentences, spoken),
  };
}
