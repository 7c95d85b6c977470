import { createHash } from 'node:crypto';

// The facet catalogues shops (and landing pages) point at: Shopify apps, web technologies, tracking pixels and
// Shopify themes. Ids are derived from the names, so they never change between runs, scales or releases.
// Each list is in rough order of popularity; the market draws from them with that order as the weight.

export type ShopifyAppFacet = { id: number; label: string; slug: string; iconUrl: string; shopifyUrl: string };
export type TechnologyFacet = { id: string; slug: string; name: string; iconUrl: string; categories: string[] };
export type PixelFacet = TechnologyFacet;
export type ThemeFacet = { id: string; name: string };

/** The namespace of the facet ids (a fixed random UUID). */
const NAMESPACE = Buffer.from('6f1c2b7e9d3a4f5e8a1b0c9d8e7f6a5b', 'hex');

/** A name-based (version 5, SHA-1) UUID of `kind:name` in the facet namespace (RFC 4122 §4.3). */
export function facetUuid(kind: string, name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${kind}:${name}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const APP_LABELS = [
  'Klaviyo: Email Marketing & SMS', 'Judge.me Product Reviews', 'Shopify Inbox', 'Shopify Forms', 'Loox Product Reviews & Photos',
  'Yotpo Product Reviews & UGC', 'Privy Pop Ups, Email & SMS', 'Omnisend Email Marketing & SMS', 'Vitals: All-in-one Marketing',
  'PageFly Landing Page Builder', 'GemPages Landing Page Builder', 'ReCharge Subscriptions', 'Gorgias Helpdesk & Live Chat',
  'Afterpay Buy Now Pay Later', 'Klarna On-site Messaging', 'AfterShip Order Tracking', 'Route: Shipping Protection',
  'Shopify Search & Discovery', 'Google & YouTube', 'Facebook & Instagram', 'TikTok', 'Pinterest', 'Zipify Pages',
  'Zipify OneClickUpsell', 'ReConvert Post Purchase Upsell', 'Rebuy Personalization Engine', 'Smile: Loyalty & Rewards',
  'Stamped Product Reviews & UGC', 'Okendo Reviews & UGC', 'Tidio Live Chat & AI Chatbots', 'Postscript SMS Marketing',
  'Attentive SMS Marketing', 'Mailchimp: Email & SMS', 'Shopify Email', 'Frequently Bought Together', 'Bold Product Options',
  'Infinite Options', 'Globo Product Options', 'Hulk Product Options', 'Wide Bundles', 'Kaching Bundles', 'Fast Bundle',
  'Bundler: Product Bundles', 'UpCart: Cart Drawer Cart Upsell', 'iCart Cart Drawer Cart Upsell', 'Monster Cart Upsell',
  'AfterSell Post Purchase Upsell', 'Candy Rack: All-in-One Upsell', 'Honeycomb Upsell Funnels', 'Selleasy Upsell Cross Sell',
  'In Cart Upsell & Cross-Sell', 'Sezzle', 'Affirm Pay Over Time', 'Zip Pay Later', 'PayPal Pay Later Messaging',
  'Shogun Landing Page Builder', 'Replo Landing Page Builder', 'EComposer Landing Page Builder', 'LayoutHub Easy Page Builder',
  'Instant Landing Page Builder', 'Foxify Page Builder', 'Skio Subscriptions', 'Loop Subscriptions', 'Bold Subscriptions',
  'Seal Subscriptions', 'Appstle Subscriptions', 'Smartrr Subscriptions', 'Stay AI Subscriptions', 'LoyaltyLion Loyalty',
  'Yotpo Loyalty & Referrals', 'Rivo Loyalty & Referrals', 'BON Loyalty Rewards Referrals', 'ReferralCandy', 'Growave Loyalty & Wishlist',
  'Joy Loyalty Program Rewards', 'Gameball Loyalty & Referrals', 'Zendesk', 'Re:amaze Live Chat & Helpdesk', 'Richpanel Helpdesk',
  'Chatty Live Chat & FAQ', 'Willdesk Live Chat & Helpdesk', 'Parcel Panel Order Tracking', 'Track123 Order Tracking',
  '17TRACK Order Tracking', 'Malomo Shipment Tracking', 'Narvar Returns & Tracking', 'Loop Returns & Exchanges', 'Corso Green Shipping Protection',
  'Extend Product Protection', 'Seel Worry-Free Purchase', 'Navidium Shipping Protection', 'ShipStation', 'Shippo', 'Easyship',
  'Order Printer Pro', 'Sufio Professional Invoices', 'MinMaxify Order Limits', 'Printful Print on Demand', 'Printify Print on Demand',
  'DSers AliExpress Dropshipping', 'Zendrop Dropshipping', 'CJdropshipping', 'Spocket Dropshipping', 'AutoDS Dropshipping', 'Syncee Dropshipping',
  'SEO Manager', 'Plug In SEO', 'Smart SEO', 'Booster SEO & Image Optimizer', 'TinyIMG SEO & Image Optimizer', 'Avada SEO Suite',
  'JSON-LD for SEO', 'Yoast SEO', 'Schema Plus for SEO', 'Elevar Conversion Tracking', 'Triple Whale', 'Northbeam', 'Lifetimely LTV & Profit',
  'Littledata Analytics', 'Analyzify GA4 & Ads Tracking', 'TrueProfit Profit Analytics', 'BeProfit Profit Tracker', 'Omega Facebook Pixel',
  'Hextom Free Shipping Bar', 'Ultimate Sales Boost', 'Fomo Social Proof', 'Hurrify Countdown Timer', 'Essential Countdown Timer Bar',
  'Avada Trust Badges', 'Wheelio Gamified Pop Up', 'Spin-a-Sale', 'Back in Stock: Restock Alerts', 'Notify Me! Back in Stock',
  'Wishlist Plus by Swym', 'Wishlist King', 'Searchanise Search & Filter', 'Boost AI Search & Discovery', 'Algolia AI Search & Discovery',
  'Klevu AI Search & Discovery', 'Smart Product Filter & Search', 'Instafeed Instagram Feed', 'Covet.pics Instagram Shop',
  'Foursixty Shoppable Instagram', 'Weglot Translate', 'Langify Translation', 'Transcy AI Language Translate', 'Translate & Adapt',
  'BEST Currency Converter', 'Consentmo GDPR Compliance', 'Pandectes GDPR Compliance', 'Accessibly App', 'accessiBe Web Accessibility',
  'UserWay Accessibility Widget', 'Lucky Orange Heatmaps & Replay', 'Hotjar', 'Intelligems A/B Testing', 'Shoplift A/B Testing',
  'Rise.ai Gift Cards & Loyalty', 'Gift Up! Gift Cards', 'BOGOS Free Gift & Bundle', 'Discount Ninja Promotions', 'PreOrder Now',
  'Timesact Pre-order', 'Sky Pilot Digital Downloads', 'Globo Form Builder', 'Hulk Form Builder', 'Stockist Store Locator',
  'Shopify Flow', 'Matrixify', 'Mechanic', 'Uploadery', 'Zapiet Pickup + Delivery', 'UpPromote Affiliate Marketing', 'Refersion Affiliate Marketing',
  'GoAffPro Affiliate Marketing', 'Social Snowball Affiliates', 'GRIN Influencer Marketing', 'Aspire Influencer Marketing',
] as const;

/** A 6-digit id from the app's slug; a collision moves to the next free number, in list order. */
function appIds(slugs: readonly string[]): number[] {
  const taken = new Set<number>();
  return slugs.map((slug) => {
    let id = 100_000 + (createHash('sha1').update(`shopify-app:${slug}`).digest().readUInt32BE(0) % 900_000);
    while (taken.has(id)) id = id === 999_999 ? 100_000 : id + 1;
    taken.add(id);
    return id;
  });
}

const APP_SLUGS = APP_LABELS.map((label) => slugOf(label.split(':')[0]));
const APP_IDS = appIds(APP_SLUGS);

export const SHOPIFY_APPS: readonly ShopifyAppFacet[] = APP_LABELS.map((label, i) => ({
  id: APP_IDS[i],
  label,
  slug: APP_SLUGS[i],
  iconUrl: `/media/facets/apps/${APP_SLUGS[i]}.png`,
  shopifyUrl: `https://apps.shopify.com/${APP_SLUGS[i]}`,
}));

type Entry = readonly [slug: string, name: string, categories: readonly string[]];

function technologies(kind: string, entries: readonly Entry[]): TechnologyFacet[] {
  return entries.map(([slug, name, categories]) => ({
    id: facetUuid(kind, slug),
    slug,
    name,
    iconUrl: `/media/facets/${kind}/${slug}.png`,
    categories: [...categories],
  }));
}

/** Storefront and funnel platforms; a shop runs on exactly one of them. */
export const PLATFORM_SLUGS = [
  'shopify', 'woocommerce', 'wordpress', 'wix', 'squarespace', 'magento', 'prestashop', 'bigcommerce', 'shopline', 'shoplazza', 'odoo',
  'webflow', 'clickfunnels', 'funnelish', 'checkoutchamp',
] as const;

export const TECHNOLOGIES: readonly TechnologyFacet[] = technologies('technologies', [
  ['shopify', 'Shopify', ['Ecommerce']],
  ['woocommerce', 'WooCommerce', ['Ecommerce', 'WordPress plugins']],
  ['wordpress', 'WordPress', ['CMS', 'Blogs']],
  ['wix', 'Wix', ['Ecommerce', 'Website builders']],
  ['squarespace', 'Squarespace', ['Ecommerce', 'Website builders']],
  ['magento', 'Magento', ['Ecommerce']],
  ['prestashop', 'PrestaShop', ['Ecommerce']],
  ['bigcommerce', 'BigCommerce', ['Ecommerce']],
  ['shopline', 'SHOPLINE', ['Ecommerce']],
  ['shoplazza', 'Shoplazza', ['Ecommerce']],
  ['odoo', 'Odoo', ['Ecommerce', 'ERP']],
  ['webflow', 'Webflow', ['Website builders']],
  ['clickfunnels', 'ClickFunnels', ['Funnel builders']],
  ['funnelish', 'Funnelish', ['Funnel builders']],
  ['checkoutchamp', 'CheckoutChamp', ['Funnel builders', 'Checkout']],
  ['gempages', 'GemPages', ['Page builders', 'Shopify apps']],
  ['pagefly', 'PageFly', ['Page builders', 'Shopify apps']],
  ['zipify-pages', 'Zipify Pages', ['Page builders', 'Shopify apps']],
  ['shogun', 'Shogun', ['Page builders', 'Shopify apps']],
  ['replo', 'Replo', ['Page builders', 'Shopify apps']],
  ['wheelio', 'Wheelio', ['Popups', 'Shopify apps']],
  ['google-analytics', 'Google Analytics', ['Analytics']],
  ['google-tag-manager', 'Google Tag Manager', ['Tag managers']],
  ['hotjar', 'Hotjar', ['Analytics', 'Heatmaps']],
  ['microsoft-clarity', 'Microsoft Clarity', ['Analytics', 'Heatmaps']],
  ['segment', 'Segment', ['Customer data platforms']],
  ['mixpanel', 'Mixpanel', ['Analytics']],
  ['heap', 'Heap', ['Analytics']],
  ['lucky-orange', 'Lucky Orange', ['Analytics', 'Heatmaps']],
  ['triple-whale', 'Triple Whale', ['Analytics', 'Attribution']],
  ['elevar', 'Elevar', ['Analytics', 'Tag managers']],
  ['northbeam', 'Northbeam', ['Attribution']],
  ['fullstory', 'FullStory', ['Analytics', 'Session replay']],
  ['shop-pay', 'Shop Pay', ['Payment processors']],
  ['paypal', 'PayPal', ['Payment processors']],
  ['stripe', 'Stripe', ['Payment processors']],
  ['apple-pay', 'Apple Pay', ['Payment processors']],
  ['google-pay', 'Google Pay', ['Payment processors']],
  ['amazon-pay', 'Amazon Pay', ['Payment processors']],
  ['klarna', 'Klarna', ['Payment processors', 'Buy now pay later']],
  ['afterpay', 'Afterpay', ['Payment processors', 'Buy now pay later']],
  ['affirm', 'Affirm', ['Payment processors', 'Buy now pay later']],
  ['sezzle', 'Sezzle', ['Payment processors', 'Buy now pay later']],
  ['adyen', 'Adyen', ['Payment processors']],
  ['judge-me', 'Judge.me', ['Reviews']],
  ['loox', 'Loox', ['Reviews']],
  ['yotpo', 'Yotpo', ['Reviews', 'Loyalty']],
  ['okendo', 'Okendo', ['Reviews']],
  ['stamped', 'Stamped', ['Reviews']],
  ['trustpilot', 'Trustpilot', ['Reviews']],
  ['reviews-io', 'REVIEWS.io', ['Reviews']],
  ['junip', 'Junip', ['Reviews']],
  ['klaviyo', 'Klaviyo', ['Email marketing', 'SMS marketing']],
  ['omnisend', 'Omnisend', ['Email marketing']],
  ['mailchimp', 'Mailchimp', ['Email marketing']],
  ['privy', 'Privy', ['Email marketing', 'Popups']],
  ['attentive', 'Attentive', ['SMS marketing']],
  ['postscript', 'Postscript', ['SMS marketing']],
  ['drip', 'Drip', ['Email marketing']],
  ['gorgias', 'Gorgias', ['Live chat', 'Helpdesk']],
  ['zendesk', 'Zendesk', ['Live chat', 'Helpdesk']],
  ['tidio', 'Tidio', ['Live chat']],
  ['intercom', 'Intercom', ['Live chat']],
  ['recharge', 'Recharge', ['Subscriptions']],
  ['skio', 'Skio', ['Subscriptions']],
  ['rebuy', 'Rebuy', ['Personalisation', 'Upsell']],
  ['nosto', 'Nosto', ['Personalisation']],
  ['smile-io', 'Smile.io', ['Loyalty']],
  ['loyaltylion', 'LoyaltyLion', ['Loyalty']],
  ['aftership', 'AfterShip', ['Shipping']],
  ['route', 'Route', ['Shipping']],
  ['algolia', 'Algolia', ['Search']],
  ['searchanise', 'Searchanise', ['Search']],
  ['klevu', 'Klevu', ['Search']],
  ['onetrust', 'OneTrust', ['Cookie compliance']],
  ['cookiebot', 'Cookiebot', ['Cookie compliance']],
  ['cloudflare', 'Cloudflare', ['CDN', 'Security']],
  ['fastly', 'Fastly', ['CDN']],
  ['amazon-cloudfront', 'Amazon CloudFront', ['CDN']],
  ['akamai', 'Akamai', ['CDN']],
  ['jsdelivr', 'jsDelivr', ['CDN']],
  ['cdnjs', 'cdnjs', ['CDN']],
  ['jquery', 'jQuery', ['JavaScript libraries']],
  ['react', 'React', ['JavaScript frameworks']],
  ['vue-js', 'Vue.js', ['JavaScript frameworks']],
  ['alpine-js', 'Alpine.js', ['JavaScript frameworks']],
  ['swiper', 'Swiper', ['JavaScript libraries']],
  ['slick', 'Slick', ['JavaScript libraries']],
  ['core-js', 'core-js', ['JavaScript libraries']],
  ['hydrogen', 'Hydrogen', ['JavaScript frameworks', 'Headless commerce']],
  ['next-js', 'Next.js', ['JavaScript frameworks']],
  ['google-fonts', 'Google Fonts', ['Font scripts']],
  ['font-awesome', 'Font Awesome', ['Font scripts']],
  ['adobe-fonts', 'Adobe Fonts', ['Font scripts']],
]);

export const PIXELS: readonly PixelFacet[] = technologies('pixels', [
  ['meta-pixel', 'Meta Pixel', ['Advertising', 'Retargeting']],
  ['google-analytics-4', 'Google Analytics 4', ['Analytics']],
  ['google-ads', 'Google Ads', ['Advertising', 'Conversion tracking']],
  ['tiktok-pixel', 'TikTok Pixel', ['Advertising', 'Retargeting']],
  ['google-tag-manager', 'Google Tag Manager', ['Tag managers']],
  ['klaviyo', 'Klaviyo', ['Email marketing']],
  ['pinterest-tag', 'Pinterest Tag', ['Advertising', 'Retargeting']],
  ['snap-pixel', 'Snap Pixel', ['Advertising', 'Retargeting']],
  ['hotjar', 'Hotjar', ['Analytics', 'Heatmaps']],
  ['microsoft-clarity', 'Microsoft Clarity', ['Analytics', 'Heatmaps']],
  ['microsoft-uet', 'Microsoft Advertising UET', ['Advertising', 'Conversion tracking']],
  ['x-pixel', 'X Pixel', ['Advertising', 'Retargeting']],
  ['reddit-pixel', 'Reddit Pixel', ['Advertising', 'Retargeting']],
  ['triple-pixel', 'Triple Whale Pixel', ['Attribution']],
  ['linkedin-insight-tag', 'LinkedIn Insight Tag', ['Advertising', 'Analytics']],
  ['criteo', 'Criteo OneTag', ['Advertising', 'Retargeting']],
  ['elevar', 'Elevar', ['Tag managers', 'Conversion tracking']],
  ['northbeam', 'Northbeam Pixel', ['Attribution']],
  ['taboola', 'Taboola Pixel', ['Advertising']],
  ['outbrain', 'Outbrain Pixel', ['Advertising']],
  ['amazon-ads', 'Amazon Ads Tag', ['Advertising']],
  ['applovin', 'AppLovin Axon Pixel', ['Advertising']],
  ['the-trade-desk', 'The Trade Desk Universal Pixel', ['Advertising']],
  ['quora-pixel', 'Quora Pixel', ['Advertising']],
  ['segment', 'Segment', ['Customer data platforms']],
  ['attentive', 'Attentive Tag', ['SMS marketing']],
]);

export const THEMES: readonly ThemeFacet[] = [
  'Dawn', 'Refresh', 'Impulse', 'Prestige', 'Sense', 'Turbo', 'Debut', 'Craft', 'Motion', 'Warehouse', 'Empire', 'Symmetry', 'Broadcast',
  'Focal', 'Be Yours', 'Minimog', 'Kalles', 'Ella', 'Booster', 'Debutify', 'Studio', 'Taste', 'Crave', 'Ride', 'Colorblock', 'Origin',
  'Publisher', 'Spotlight', 'Trade', 'Horizon', 'Brooklyn', 'Minimal', 'Narrative', 'Supply', 'Venture', 'Simple', 'Boundless', 'Express',
  'Pipeline', 'Palo Alto', 'Flow', 'Streamline', 'Expanse', 'Fetch', 'Shoptimized', 'Electro', 'Local', 'Enterprise', 'Stiletto', 'Mojave',
  'Maker', 'Canopy', 'District', 'Context', 'Showcase', 'Editions', 'Atlantic', 'Parallax', 'Responsive', 'Testament', 'Vantage', 'Icon',
  'Launch', 'Emporium', 'Release', 'Sleek', 'Athens', 'Split', 'Pursuit',
].map((name) => ({ id: facetUuid('themes', name), name }));
