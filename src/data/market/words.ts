// Word lists for the synthetic market: categories, brand vocabulary, ad copy, countries and spoken lines.

export const CATEGORIES = [
  'Clothing',
  'Beauty',
  'Health & wellness',
  'Home decor',
  'Electronics',
  'Pet supplies',
  'Jewelry',
  'Sports',
  'Food & beverage',
  'Toys',
] as const;

export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_WEIGHTS: readonly (readonly [Category, number])[] = [
  ['Clothing', 22],
  ['Beauty', 16],
  ['Health & wellness', 12],
  ['Home decor', 10],
  ['Electronics', 8],
  ['Pet supplies', 7],
  ['Jewelry', 8],
  ['Sports', 8],
  ['Food & beverage', 5],
  ['Toys', 4],
];

/** Google product taxonomy top-level names. */
export const TAXONOMY = [
  'Apparel & Accessories',
  'Health & Beauty',
  'Home & Garden',
  'Electronics',
  'Sporting Goods',
  'Animals & Pet Supplies',
  'Toys & Games',
  'Food, Beverages & Tobacco',
  'Baby & Toddler',
  'Luggage & Bags',
] as const;

type Vocabulary = {
  taxonomy: (typeof TAXONOMY)[number];
  /** Other taxonomy branches such shops also sell in. */
  related: readonly (typeof TAXONOMY)[number][];
  brandWords: readonly string[];
  products: readonly string[];
  collections: readonly string[];
  benefits: readonly string[];
};

export const VOCABULARY: Record<Category, Vocabulary> = {
  Clothing: {
    taxonomy: 'Apparel & Accessories',
    related: ['Luggage & Bags', 'Sporting Goods', 'Baby & Toddler'],
    brandWords: ['Thread', 'Loom', 'Stitch', 'Linen', 'Denim', 'Atelier', 'Wardrobe', 'Cotton', 'Tailor', 'Label', 'Wear', 'Studio'],
    products: ['linen shirt', 'summer dress', 'oversized hoodie', 'denim jacket', 'cargo pants', 'knit sweater', 'wide-leg trousers', 'rain jacket', 'everyday tee'],
    collections: ['summer collection', 'linen edit', 'new arrivals', 'bestsellers', 'autumn layers', 'essentials'],
    benefits: ['ethically made', 'made from organic cotton', 'cut for a relaxed fit', 'built to last for years', 'machine washable'],
  },
  Beauty: {
    taxonomy: 'Health & Beauty',
    related: ['Apparel & Accessories', 'Home & Garden'],
    brandWords: ['Glow', 'Bloom', 'Skin', 'Velvet', 'Dew', 'Petal', 'Aura', 'Radiance', 'Silk', 'Beauty'],
    products: ['vitamin C serum', 'hyaluronic serum', 'night cream', 'lip oil', 'SPF 50 sunscreen', 'clay face mask', 'eye cream', 'cleansing balm', 'hair oil'],
    collections: ['skincare sets', 'summer glow kit', 'bestsellers', 'new arrivals', 'travel minis'],
    benefits: ['dermatologist-tested', 'vegan and cruelty-free', 'fragrance-free', 'made with clean ingredients', 'gentle on sensitive skin'],
  },
  'Health & wellness': {
    taxonomy: 'Health & Beauty',
    related: ['Sporting Goods', 'Food, Beverages & Tobacco'],
    brandWords: ['Vital', 'Nourish', 'Balance', 'Thrive', 'Zen', 'Herb', 'Root', 'Wellness', 'Remedy', 'Health'],
    products: ['collagen powder', 'magnesium gummies', 'sleep drops', 'plant protein shake', 'vitamin D3 drops', 'probiotic capsules', 'posture corrector', 'massage gun'],
    collections: ['sleep bundle', 'daily essentials', 'bestsellers', 'starter kits', 'gut health range'],
    benefits: ['third-party lab tested', 'made without fillers', 'backed by science', 'sugar-free', 'easy to take every day'],
  },
  'Home decor': {
    taxonomy: 'Home & Garden',
    related: ['Baby & Toddler', 'Apparel & Accessories'],
    brandWords: ['Nest', 'Hearth', 'Haven', 'Loft', 'Casa', 'Nook', 'Home', 'Interiors', 'Living', 'House'],
    products: ['linen bedding set', 'ceramic vase', 'wall art print', 'scented candle', 'throw blanket', 'table lamp', 'rattan mirror', 'cushion cover'],
    collections: ['bedroom edit', 'summer living collection', 'new arrivals', 'candle collection', 'gift guide'],
    benefits: ['handmade by artisans', 'made from natural materials', 'designed to last', 'delivered ready to hang', 'available in six colours'],
  },
  Electronics: {
    taxonomy: 'Electronics',
    related: ['Home & Garden', 'Sporting Goods', 'Luggage & Bags'],
    brandWords: ['Volt', 'Pixel', 'Circuit', 'Tech', 'Wave', 'Flux', 'Spark', 'Gadget', 'Audio', 'Labs'],
    products: ['wireless earbuds', 'magnetic phone case', 'power bank', 'smart watch', 'LED strip lights', 'mini projector', 'charging station', 'dash cam'],
    collections: ['audio range', 'charging essentials', 'new arrivals', 'gift ideas', 'bestsellers'],
    benefits: ['charges in under an hour', 'backed by a two-year warranty', 'compatible with every phone', 'water resistant', 'tested by 10,000 users'],
  },
  'Pet supplies': {
    taxonomy: 'Animals & Pet Supplies',
    related: ['Home & Garden', 'Food, Beverages & Tobacco'],
    brandWords: ['Paws', 'Tail', 'Whisker', 'Pup', 'Bark', 'Furry', 'Kitty', 'Fetch', 'Pets', 'Paw'],
    products: ['no-pull dog harness', 'cat tree', 'orthopedic dog bed', 'grain-free treats', 'self-cleaning litter box', 'slow feeder bowl', 'pet camera'],
    collections: ['dog essentials', 'cat favourites', 'new arrivals', 'bestsellers', 'summer walks'],
    benefits: ['vet approved', 'made from chew-proof materials', 'machine washable', 'loved by 20,000 pets', 'made with natural ingredients'],
  },
  Jewelry: {
    taxonomy: 'Apparel & Accessories',
    related: ['Luggage & Bags', 'Health & Beauty'],
    brandWords: ['Gem', 'Gold', 'Pearl', 'Luxe', 'Halo', 'Opal', 'Charm', 'Ember', 'Jewels', 'Carat'],
    products: ['gold hoop earrings', 'pearl necklace', 'birthstone ring', 'charm bracelet', 'personalised name necklace', 'sterling silver studs'],
    collections: ['gift sets', 'summer jewellery', 'new arrivals', 'bestsellers', 'personalised pieces'],
    benefits: ['18k gold plated', 'hypoallergenic', 'waterproof and tarnish-free', 'handcrafted in small batches', 'gift-wrapped for free'],
  },
  Sports: {
    taxonomy: 'Sporting Goods',
    related: ['Apparel & Accessories', 'Health & Beauty', 'Luggage & Bags'],
    brandWords: ['Peak', 'Stride', 'Summit', 'Core', 'Active', 'Flex', 'Pulse', 'Trail', 'Fitness', 'Athletic'],
    products: ['yoga mat', 'resistance bands', 'running shorts', 'seamless gym leggings', 'adjustable dumbbells', 'hydration vest', 'padel racket'],
    collections: ['training range', 'running collection', 'new arrivals', 'summer sport edit', 'home gym range'],
    benefits: ['sweat-wicking', 'squat-proof', 'built for daily training', 'tested by athletes', 'non-slip and eco-friendly'],
  },
  'Food & beverage': {
    taxonomy: 'Food, Beverages & Tobacco',
    related: ['Health & Beauty', 'Home & Garden'],
    brandWords: ['Harvest', 'Brew', 'Kitchen', 'Orchard', 'Roast', 'Spice', 'Farm', 'Pantry', 'Coffee', 'Foods'],
    products: ['cold brew coffee', 'ceremonial matcha', 'protein bars', 'small-batch hot sauce', 'extra virgin olive oil', 'loose leaf tea', 'honey granola'],
    collections: ['tasting boxes', 'subscriptions', 'bestsellers', 'summer drinks', 'gift boxes'],
    benefits: ['made from organic ingredients', 'roasted to order', 'with no added sugar', 'sourced directly from farmers', 'delivered fresh every month'],
  },
  Toys: {
    taxonomy: 'Toys & Games',
    related: ['Baby & Toddler', 'Sporting Goods'],
    brandWords: ['Play', 'Wonder', 'Kiddo', 'Joy', 'Sprout', 'Cubby', 'Toys', 'Kids', 'Blocks', 'Tots'],
    products: ['wooden puzzle', 'building blocks set', 'plush toy', 'STEM kit', 'ride-on car', 'magnetic tiles', 'family board game'],
    collections: ['gifts by age', 'learning toys', 'new arrivals', 'bestsellers', 'summer outdoor play'],
    benefits: ['made from sustainable wood', 'safety tested', 'designed with teachers', 'screen-free fun', 'built for little hands'],
  },
};

export const BRAND_ADJECTIVES = [
  'Nordic', 'Lumen', 'Golden', 'Urban', 'Wild', 'Little', 'Modern', 'Pure', 'True', 'Bright', 'Coastal', 'Silver',
  'Bold', 'Happy', 'Simple', 'Honest', 'Solar', 'Lunar', 'Alpine', 'Royal', 'Green', 'Blue', 'Rosy', 'Ivory',
  'Amber', 'Misty', 'Sunny', 'Cozy', 'Fresh', 'Maple', 'Cedar', 'Willow', 'Juniper', 'Sage', 'Olive', 'Coral',
  'Indigo', 'Azure', 'Noble', 'Kind', 'Daily', 'North', 'West', 'Atlas', 'Nova', 'Luna', 'Vera', 'Arlo',
  'Milo', 'Ruby', 'Iris', 'Oak', 'Birch', 'Harbor', 'Meadow', 'Summit', 'Velvet', 'Wren', 'Fern', 'Ember',
];

export const FIRST_NAMES = ['Milo', 'Ava', 'Leo', 'Nora', 'Oscar', 'Ella', 'Theo', 'Maya', 'Jack', 'Lily', 'Finn', 'Zoe', 'Max', 'Rosa', 'Hugo', 'Ivy'];

export const BRAND_SUFFIXES = ['Store', 'Shop', 'Co', 'Studio', 'Supply', 'Goods', 'Lab', 'Boutique', 'Club', 'Collective'];

export const CTAS: readonly (readonly [string, number])[] = [
  ['Shop now', 45],
  ['Learn more', 18],
  ['Order now', 8],
  ['Get offer', 7],
  ['Sign up', 5],
  ['Subscribe', 4],
  ['Watch more', 6],
  ['Book now', 2],
  ['Download', 2],
  ['Contact us', 3],
];

/** Calls to action of pages that have no shop to send people to. */
export const NO_SHOP_CTAS: readonly (readonly [string, number])[] = [
  ['Learn more', 40],
  ['Contact us', 20],
  ['Sign up', 15],
  ['Watch more', 15],
  ['Subscribe', 10],
];

export const OFFERS = [
  'Up to 30% off',
  'Up to 50% off',
  'Free shipping on all orders',
  'Free shipping over $50',
  '20% off your first order',
  'Buy 2, get 1 free',
  'Free returns within 30 days',
  'Save 15% with code WELCOME15',
  'Limited-time bundle deal',
  'Members get early access',
  '2 for $40 this week',
];

export const SEASONS: readonly (readonly [string, number])[] = [
  ['summer', 30],
  ['spring', 12],
  ['autumn', 10],
  ['winter', 10],
  ['holiday', 12],
  ['Black Friday', 10],
  ["Mother's Day", 6],
  ['back-to-school', 5],
];

export const TITLE_TEMPLATES = [
  'The {product} everyone is talking about',
  '{Season} Sale: {offer}',
  'New {product} just dropped',
  'Meet the {product} by {brand}',
  'Why 10,000+ customers switched to {brand}',
  '{offer} at {brand}',
  'Your new favourite {product}',
  '{Product}, reinvented',
  'Shop the {collection}',
  '{brand} | {Collection}',
];

export const HOOK_TEMPLATES = [
  'Still searching for the perfect {product}?',
  'This {product} sold out three times this year.',
  'Our {season} drop is finally here.',
  'We made the {product} we always wanted.',
  'Tired of cheap alternatives that never last?',
  'POV: you finally found a {product} that works.',
  'The {collection} you have been waiting for.',
  '{brand} just launched something new.',
];

export const PRODUCT_SENTENCES = [
  'Our {product} is {benefit} and {benefit2}.',
  'Every {product} from {brand} is {benefit}.',
  'Rated 4.8 stars by thousands of happy customers.',
  'It is {benefit}, and our customers notice the difference.',
  'Discover the {collection} from {brand}.',
];

export const OFFER_SENTENCES = ['{offer}.', '{offer}, this week only.', 'Shop the {season} sale: {offer_lower}.', '{offer} across our {collection}.'];

export const CLOSING_SENTENCES = [
  'Tap {cta_lower} to find yours.',
  'Order today and see the difference.',
  'Only at {brand}.',
  'Limited stock, so do not wait.',
  'Join the {brand} community today.',
];

export const CTA_DESCRIPTIONS = ['{Product} | {brand}', 'Shop the {season} collection', '{offer}', 'Free shipping over $50', 'New {collection}', '{brand} official store'];

export const CTA_LINK_DESCRIPTIONS = ['{Benefit}. {offer}.', 'Discover the {collection}.', 'Loved by our customers. {offer}.', '{Product}: {benefit}.', 'Order online, delivered to your door.'];

/** ISO 3166 alpha-2 codes and how often ads target them. */
export const COUNTRY_WEIGHTS: readonly (readonly [string, number])[] = [
  ['US', 30], ['GB', 12], ['FR', 9], ['DE', 9], ['CA', 7], ['AU', 6], ['ES', 5], ['IT', 5], ['NL', 4], ['BE', 3],
  ['SE', 3], ['CH', 2], ['AT', 2], ['IE', 2], ['DK', 2], ['NO', 2], ['FI', 1.5], ['PT', 1.5], ['PL', 1.5], ['NZ', 1.5],
  ['BR', 1], ['MX', 1], ['JP', 1], ['AE', 1], ['SG', 1], ['IN', 1], ['CZ', 0.8], ['GR', 0.8], ['RO', 0.6], ['ZA', 0.5],
];

/** EU member states, the rest of the EEA and the UK: ads reaching them are "EU ads" in the Ad Library. */
export const EU_UK = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO', 'GB',
]);

/** Domain labels for a country-specific shop (`<brand>-uk.com`). */
export const COUNTRY_DOMAIN_LABEL: Record<string, string> = { GB: 'uk' };

export type Language = 'en' | 'fr' | 'de' | 'es' | 'it' | 'nl';

/** The language a page speaks, from its home country. */
export const HOME_LANGUAGE: Record<string, Language> = { FR: 'fr', BE: 'fr', DE: 'de', AT: 'de', CH: 'de', ES: 'es', MX: 'es', IT: 'it', NL: 'nl' };

type Spoken = { openings: readonly string[]; middles: readonly string[]; closings: readonly string[] };

export const SPOKEN: Record<Language, Spoken> = {
  en: {
    openings: [
      'Okay, I need to talk about this {product}.',
      'Stop scrolling if you have been looking for a good {product}.',
      'Three reasons everyone is obsessed with {brand}.',
      'I did not expect this {product} to change my routine.',
      'This is your sign to finally try {brand}.',
    ],
    middles: [
      'I have been using it for three weeks and honestly, I love it.',
      'It arrived in two days with free shipping.',
      'Just look at the quality.',
      'It is {benefit}, which I really care about.',
      'My friends keep asking me where I got it.',
      'Right now it is up to 30% off.',
      'The {collection} is back in stock.',
    ],
    closings: ['Link is below, go get yours.', 'Tap the button and thank me later.', 'Check out {brand} before it sells out.'],
  },
  fr: {
    openings: ['Il faut absolument que je vous parle de ce {product}.', 'Arrêtez de scroller si vous cherchez un bon {product}.', 'Trois raisons pour lesquelles tout le monde adore {brand}.'],
    middles: [
      "Je l'utilise depuis trois semaines et franchement, je l'adore.",
      'Livraison gratuite en deux jours.',
      'Regardez cette qualité.',
      "En ce moment, c'est jusqu'à 30 % de réduction.",
      'Mes amies me demandent toutes où je l’ai trouvé.',
    ],
    closings: ['Le lien est juste en dessous.', 'Foncez sur le site de {brand} avant la rupture.'],
  },
  de: {
    openings: ['Ich muss euch unbedingt von diesem {product} erzählen.', 'Hör auf zu scrollen, wenn du ein gutes {product} suchst.', 'Drei Gründe, warum alle {brand} lieben.'],
    middles: [
      'Ich benutze es seit drei Wochen und bin total begeistert.',
      'Kostenloser Versand in nur zwei Tagen.',
      'Schaut euch diese Qualität an.',
      'Gerade gibt es bis zu 30 % Rabatt.',
      'Alle meine Freundinnen fragen, wo ich es herhabe.',
    ],
    closings: ['Der Link ist unten.', 'Schau jetzt bei {brand} vorbei, bevor alles weg ist.'],
  },
  es: {
    openings: ['Tengo que hablaros de este {product}.', 'Deja de hacer scroll si buscas un buen {product}.', 'Tres razones por las que todos aman {brand}.'],
    middles: [
      'Lo uso desde hace tres semanas y me encanta.',
      'Llegó en dos días con envío gratis.',
      'Mirad qué calidad.',
      'Ahora mismo tiene hasta un 30 % de descuento.',
    ],
    closings: ['El enlace está abajo.', 'Corre a la web de {brand} antes de que se agote.'],
  },
  it: {
    openings: ['Devo assolutamente parlarvi di questo {product}.', 'Smetti di scorrere se cerchi un buon {product}.', 'Tre motivi per cui tutti amano {brand}.'],
    middles: ['Lo uso da tre settimane e lo adoro.', 'È arrivato in due giorni con spedizione gratuita.', 'Guardate che qualità.', 'In questo momento è scontato fino al 30 %.'],
    closings: ['Trovate il link qui sotto.', 'Andate sul sito di {brand} prima che finisca.'],
  },
  nl: {
    openings: ['Ik moet jullie echt over deze {product} vertellen.', 'Stop met scrollen als je een goede {product} zoekt.', 'Drie redenen waarom iedereen {brand} geweldig vindt.'],
    middles: ['Ik gebruik het nu drie weken en ik ben fan.', 'Binnen twee dagen geleverd met gratis verzending.', 'Kijk naar die kwaliteit.', 'Nu tot 30% korting.'],
    closings: ['De link staat hieronder.', 'Ga snel naar {brand} voordat het uitverkocht is.'],
  },
};
