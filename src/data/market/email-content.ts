import type { Rng } from '../random.js';
import { CALL_TO_ACTION, PHRASEBOOKS, type EmailLanguage } from './email-copy.js';
import type { EmailCategory, EmailEventDef, PromotionType } from './email-calendar.js';
import { compactSlug, fill, slugify } from './names.js';

// The subject, preheader, plain-text body and HTML of one email, written from its classification: the offer the
// promotion type names appears in the subject or body with its figures (a percent-off email states its %).

export type ProductCard = { title: string; product: string; price: string };

export type EmailBrief = {
  language: EmailLanguage;
  brand: string;
  domain: string;
  shopId: string;
  category: EmailCategory;
  promotion: PromotionType;
  /** A calendar event (lifecycle events are not named in the copy). */
  event: EmailEventDef | null;
  products: ProductCard[];
  benefit: string;
  /** A whole amount of the shop's currency for a USD figure, formatted. */
  money: (usd: number) => string;
  accent: string;
};

export type EmailContent = { subject: string; preheader: string | null; body: string; html: string };

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'products'; items: ProductCard[] }
  | { kind: 'cta'; label: string; url: string }
  | { kind: 'footer'; text: string };

const DEAL_EVENTS = new Set(['Black Friday', 'Cyber Monday', 'Singles Day', 'Boxing Day']);
const CODE_WORDS: Readonly<Record<string, string>> = {
  'Black Friday': 'BF',
  'Cyber Monday': 'CYBER',
  Christmas: 'XMAS',
  "Valentine's Day": 'LOVE',
  "Mother's Day": 'MOM',
  "Father's Day": 'DAD',
  'Summer Sale': 'SUMMER',
  'Winter Sale': 'WINTER',
  'Spring Sale': 'SPRING',
  'Back to School': 'SCHOOL',
  Halloween: 'SPOOKY',
  'New Year': 'NEWYEAR',
};
const EMOJIS: Readonly<Record<string, readonly string[]>> = {
  'Black Friday': ['🖤', '🔥', '⚡'],
  'Cyber Monday': ['💻', '⚡'],
  Christmas: ['🎄', '🎁', '✨'],
  "Valentine's Day": ['💝', '❤️'],
  "Mother's Day": ['💐', '🌸'],
  Halloween: ['🎃', '👻'],
  'Summer Sale': ['☀️', '🌴'],
  default: ['✨', '🎁', '🔥', '👀', '💌', '🛍️'],
};
/** Where each kind of email's button goes. */
const PATHS: Record<EmailCategory, (product: string) => string> = {
  newsletter: () => 'collections/new-arrivals',
  'product-launch': (product) => `products/${product}`,
  sale: () => 'collections/sale',
  'abandoned-cart': () => 'cart',
  'back-in-stock': (product) => `products/${product}`,
  welcome: () => 'collections/bestsellers',
  loyalty: () => 'account/rewards',
  survey: () => 'pages/survey',
  'review-request': (product) => `products/${product}#reviews`,
  'post-purchase': () => 'account/orders',
  'win-back': () => 'collections/new-arrivals',
  birthday: () => 'account/rewards',
  giveaway: () => 'pages/giveaway',
  'gift-guide': () => 'collections/gifts',
};
const STORYTELLING = new Set<EmailCategory>(['product-launch', 'gift-guide', 'welcome', 'loyalty']);
const FLOWS = new Set<EmailCategory>(['abandoned-cart', 'back-in-stock', 'post-purchase', 'review-request', 'win-back', 'birthday']);
const SHOWS_PRODUCTS = new Set<EmailCategory>(['newsletter', 'product-launch', 'sale', 'abandoned-cart', 'back-in-stock', 'welcome', 'win-back', 'gift-guide']);

function offerValues(rng: Rng, brief: EmailBrief): Record<string, string> {
  const deal = brief.event !== null && DEAL_EVENTS.has(brief.event.name);
  const pct = brief.promotion === 'tiered-discount' ? rng.pick([20, 25, 30, 40]) : deal ? rng.pick([20, 25, 30, 40, 50]) : brief.category === 'welcome' ? rng.pick([10, 15, 20]) : rng.pick([10, 15, 20, 25, 30]);
  const amount = rng.pick([5, 10, 15, 20, 25]);
  const word = (brief.event && CODE_WORDS[brief.event.name]) ?? (brief.category === 'welcome' ? 'WELCOME' : brief.category === 'birthday' ? 'BDAY' : rng.pick(['SAVE', 'VIP', compactSlug(brief.brand).slice(0, 6).toUpperCase() || 'SAVE']));
  return {
    pct: String(pct),
    amount: brief.money(amount),
    min: brief.money(amount * rng.pick([4, 5, 6])),
    multiplier: String(rng.pick([2, 2, 3])),
    prize: brief.money(rng.pick([100, 250, 500, 1000])),
    code: `${word}${brief.promotion === 'dollar-off' ? amount : pct}`,
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function writeEmail(rng: Rng, brief: EmailBrief): EmailContent {
  const words = PHRASEBOOKS[brief.language];
  const hero = brief.products[0];
  const values: Record<string, string> = {
    brand: brief.brand,
    domain: brief.domain,
    title: hero.title,
    product: hero.product,
    benefit: brief.benefit,
    event: brief.event ? (words.events[brief.event.name] ?? brief.event.name) : '',
    ...offerValues(rng, brief),
  };
  const promoted = brief.promotion !== 'no-promotion';
  if (brief.promotion !== 'no-promotion') values.offer = fill(rng.pick(words.offers[brief.promotion]), values);
  const say = (templates: readonly string[]) => fill(rng.pick(templates), values);

  let subject: string;
  if (brief.event) subject = say(promoted ? words.subjects.eventOffer : words.subjects.event);
  else if (promoted && (brief.category === 'sale' || rng.chance(0.5))) subject = say(words.subjects.offer);
  else subject = say(words.subjects.category[brief.category]) + (promoted ? ` – ${fill('{Offer}', values)}` : '');
  if (rng.chance(0.25)) subject = `${subject} ${rng.pick(EMOJIS[brief.event?.name ?? 'default'] ?? EMOJIS.default)}`;

  const intro = brief.event ? say(words.eventIntros) : say(words.intros[brief.category]);
  const blocks: Block[] = [{ kind: 'text', text: rng.pick(words.greetings) }, { kind: 'text', text: intro }];
  if (brief.event && rng.chance(0.5)) blocks.push({ kind: 'text', text: say(words.intros[brief.category]) });
  const stories = brief.category === 'newsletter' ? rng.int(1, 2) : STORYTELLING.has(brief.category) && rng.chance(0.5) ? 1 : 0;
  for (const story of rng.shuffle(words.stories.slice()).slice(0, stories)) blocks.push({ kind: 'text', text: fill(story, values) });
  let offerLine: string | null = null;
  if (promoted) {
    offerLine = say(words.offerLines);
    const lines = [offerLine];
    if (['percent-off', 'dollar-off', 'bundle', 'tiered-discount'].includes(brief.promotion) && rng.chance(0.6)) lines.push(fill(words.codeLine, values));
    if (rng.chance(0.6)) lines.push(rng.pick(words.deadlines));
    blocks.push({ kind: 'text', text: lines.join(' ') });
  }
  if (SHOWS_PRODUCTS.has(brief.category)) blocks.push({ kind: 'products', items: brief.products });
  if (rng.chance(0.5)) blocks.push({ kind: 'text', text: say(words.reassurance) });
  const url = `https://${brief.domain}/${PATHS[brief.category](slugify(hero.product))}`;
  blocks.push({ kind: 'cta', label: words.ctas[CALL_TO_ACTION[brief.category]], url });
  blocks.push({ kind: 'text', text: `${rng.pick(words.signoffs)}\n${rng.chance(0.5) && !brief.brand.startsWith('The ') ? fill(words.team, values) : brief.brand}` });
  if (!FLOWS.has(brief.category) && rng.chance(0.2)) blocks.push({ kind: 'text', text: words.postscript });
  blocks.push({ kind: 'footer', text: fill(words.footer, values) });

  const preheader = rng.chance(0.05) ? null : (offerLine ?? intro);
  return { subject, preheader, body: bodyText(blocks), html: renderHtml(brief, subject, preheader, blocks) };
}

function bodyText(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'products') return block.items.map((item) => `${item.title} — ${item.price}`).join('\n');
      if (block.kind === 'cta') return `${block.label}: ${block.url}`;
      return block.text;
    })
    .join('\n\n');
}

function renderHtml(brief: EmailBrief, subject: string, preheader: string | null, blocks: Block[]): string {
  // The server's own media (src/plugins/use-media.ts); GET /v1/emails/{emailId}/html answers them as absolute URLs.
  const cdn = `/media/emails/${brief.shopId}`;
  const rows = blocks.map((block) => {
    switch (block.kind) {
      case 'text':
        return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(block.text).replace(/\n/g, '<br>')}</p>`;
      case 'products':
        return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>${block.items
          .map(
            (item) =>
              `<td align="center" style="padding:8px"><img src="${cdn}/${slugify(item.product)}.jpg" alt="${escapeHtml(item.title)}" width="160"><br>${escapeHtml(item.title)}<br><strong>${escapeHtml(item.price)}</strong></td>`,
          )
          .join('')}</tr></table>`;
      case 'cta':
        return `<p style="text-align:center;margin:24px 0"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:14px 28px;background:${brief.accent};color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(block.label)}</a></p>`;
      case 'footer':
        return `</td></tr><tr><td style="padding:24px 32px;font-size:12px;color:#888888">${escapeHtml(block.text)}`;
    }
  });
  return [
    `<!DOCTYPE html><html lang="${brief.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f4f4f4">',
    preheader === null ? '' : `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(preheader)}</div>`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">',
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff;font-family:Helvetica,Arial,sans-serif;color:#222222">',
    `<tr><td style="padding:24px;text-align:center"><a href="https://${brief.domain}"><img src="${cdn}/logo.png" alt="${escapeHtml(brief.brand)}" width="160"></a></td></tr>`,
    `<tr><td style="padding:0 32px"><h1 style="font-size:24px;margin:0 0 16px">${escapeHtml(subject)}</h1>`,
    ...rows,
    '</td></tr></table></td></tr></table></body></html>',
  ].join('\n');
}
