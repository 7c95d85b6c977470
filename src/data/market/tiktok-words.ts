import type { Category, Language } from './words.js';

// Vocabulary of the synthetic TikTok library: hashtags, captions, bios and music.

export const CATEGORY_HASHTAGS: Record<Category, readonly string[]> = {
  Clothing: ['ootd', 'fashion', 'outfitinspo', 'style', 'haul', 'grwm', 'streetstyle'],
  Beauty: ['skincare', 'makeup', 'skincareroutine', 'glowup', 'beautytok', 'grwm', 'serum'],
  'Health & wellness': ['wellness', 'selfcare', 'healthylifestyle', 'sleep', 'guthealth', 'vitamins'],
  'Home decor': ['homedecor', 'roomtour', 'interiordesign', 'cozyhome', 'apartmenttherapy', 'diy'],
  Electronics: ['tech', 'gadgets', 'techtok', 'unboxing', 'setup', 'techreview'],
  'Pet supplies': ['dogsoftiktok', 'catsoftiktok', 'pets', 'puppy', 'doglife', 'petlover'],
  Jewelry: ['jewelry', 'gold', 'earrings', 'accessories', 'giftideas', 'necklace'],
  Sports: ['fitness', 'gym', 'workout', 'running', 'gymtok', 'homeworkout', 'yoga'],
  'Food & beverage': ['foodtok', 'coffee', 'recipe', 'matcha', 'snacks', 'foodie'],
  Toys: ['toys', 'momtok', 'kidsactivities', 'parenting', 'montessori', 'giftideas'],
};

export const GENERIC_HASHTAGS: readonly (readonly [string, number])[] = [
  ['fyp', 30], ['foryou', 20], ['viral', 12], ['tiktokmademebuyit', 10], ['smallbusiness', 8], ['musthave', 6],
  ['trending', 6], ['sale', 4], ['summer', 4], ['giftguide', 3],
];

/** Caption openings per language; `{product}`, `{brand}`, `{benefit}` are filled in. */
export const CAPTIONS: Record<Language, readonly string[]> = {
  en: [
    'The {product} that actually works',
    'POV: you finally found the perfect {product}',
    'Obsessed with this {product} from {brand}',
    'Rating the {product} everyone keeps asking about',
    'Three ways to use our {product}',
    'Unboxing the new {product}',
    'This {product} is {benefit}',
    'Day in the life with {brand}',
  ],
  fr: ['Le {product} qui marche vraiment', 'Je teste le {product} de {brand}', 'Trois façons d’utiliser notre {product}'],
  de: ['Das {product}, das wirklich funktioniert', 'Ich teste das {product} von {brand}', 'Drei Wege, unser {product} zu nutzen'],
  es: ['El {product} que de verdad funciona', 'Probando el {product} de {brand}', 'Tres formas de usar nuestro {product}'],
  it: ['Il {product} che funziona davvero', 'Provo il {product} di {brand}', 'Tre modi per usare il nostro {product}'],
  nl: ['De {product} die echt werkt', 'Ik test de {product} van {brand}', 'Drie manieren om onze {product} te gebruiken'],
};

export const BIOS = [
  'Official {brand} account',
  '{Product}, {benefit}',
  'Shop the {collection} below',
  'Daily {category} tips and honest reviews',
  'Just sharing what I love',
];

export const TRACK_WORDS = [
  'Summer', 'Night', 'Golden', 'Dreams', 'Neon', 'Heart', 'Fire', 'Ocean', 'Sugar', 'Velvet', 'Midnight', 'Electric',
  'Paradise', 'City', 'Lights', 'Wild', 'Love', 'Island', 'Echo', 'Gravity', 'Honey', 'Bloom', 'Starlight', 'Rush',
];

export const ARTIST_FIRST = ['Luna', 'Kai', 'Nova', 'Remy', 'Sasha', 'Milo', 'Aria', 'Jules', 'Zara', 'Theo', 'Iris', 'Felix'];
export const ARTIST_LAST = ['Vega', 'Reyes', 'Stone', 'Kato', 'Lind', 'Moreau', 'Blake', 'Hart', 'Novak', 'Silva', 'Wolfe', 'Quinn'];
