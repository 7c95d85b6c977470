import type { Rng } from '../random.js';

// Product vocabulary by Google taxonomy branch (the names shops store in `categories`), storefront currencies
// and shop-like price points. USD conversions use the reference rates of src/data/usd-rates.ts.

/** An option of a product line: its name and the values variants combine; `priced` options cost more further down the list. */
export type ProductOption = { name: string; values: readonly string[]; priced?: boolean };

/**
 * A line of products a shop sells: the Shopify product type, title words, the options its variants vary by
 * (none: a single "Default Title" variant) and the median price in USD.
 */
export type ProductLine = {
  productType: string;
  nouns: readonly string[];
  modifiers: readonly string[];
  options: readonly (readonly ProductOption[])[];
  priceUsd: number;
};

export type CategoryWords = { lines: readonly ProductLine[]; benefits: readonly string[] };

const SIZES: ProductOption = { name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL', 'XXL'] };
const SHOE_SIZES: ProductOption = { name: 'Size', values: ['37', '38', '39', '40', '41', '42', '43', '44'] };
const COLORS: ProductOption = { name: 'Color', values: ['Black', 'White', 'Sand', 'Sage', 'Navy', 'Olive', 'Stone', 'Terracotta', 'Charcoal', 'Cream'] };
const METALS: ProductOption = { name: 'Material', values: ['Gold', 'Silver', 'Rose Gold'] };
const VOLUMES: ProductOption = { name: 'Size', values: ['15ml', '30ml', '50ml', '100ml'], priced: true };
const SHADES: ProductOption = { name: 'Shade', values: ['Nude', 'Rose', 'Berry', 'Coral', 'Mocha', 'Peach'] };
const PACKS: ProductOption = { name: 'Quantity', values: ['1 Pack', '2 Pack', '3 Pack', '6 Pack'], priced: true };
const FLAVORS: ProductOption = { name: 'Flavor', values: ['Unflavoured', 'Vanilla', 'Chocolate', 'Berry', 'Lemon', 'Mango'] };
const BED_SIZES: ProductOption = { name: 'Size', values: ['Single', 'Double', 'Queen', 'King'], priced: true };
const SCENTS: ProductOption = { name: 'Scent', values: ['Fig & Cedar', 'Sea Salt', 'Amber', 'Lavender', 'Bergamot', 'Vanilla Wood'] };
const PHONES: ProductOption = { name: 'Model', values: ['iPhone 15', 'iPhone 15 Pro', 'iPhone 16', 'iPhone 16 Pro', 'Galaxy S24'] };
const PET_SIZES: ProductOption = { name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL'] };
const WEIGHTS: ProductOption = { name: 'Weight', values: ['250g', '500g', '1kg'], priced: true };
const GRINDS: ProductOption = { name: 'Grind', values: ['Whole Bean', 'Espresso', 'Filter', 'French Press'] };
const BABY_SIZES: ProductOption = { name: 'Size', values: ['0-3M', '3-6M', '6-12M', '12-18M'] };
const LENGTHS: ProductOption = { name: 'Length', values: ['2m', '5m', '10m'], priced: true };
const DUMBBELLS: ProductOption = { name: 'Weight', values: ['2kg', '4kg', '6kg', '8kg', '10kg'], priced: true };
const BUNDLES: ProductOption = { name: 'Bundle', values: ['Single', 'Set of 2', 'Set of 3'], priced: true };

export const PRODUCT_WORDS: Record<string, CategoryWords> = {
  'Apparel & Accessories': {
    lines: [
      { productType: 'Tops', nouns: ['Tee', 'Linen Shirt', 'Hoodie', 'Knit Sweater', 'Tank Top', 'Crewneck Sweatshirt', 'Polo Shirt', 'Cardigan'], modifiers: ['Relaxed', 'Classic', 'Organic Cotton', 'Everyday', 'Oversized', 'Heavyweight', 'Cropped', 'Ribbed', 'Merino'], options: [[SIZES, COLORS], [SIZES]], priceUsd: 42 },
      { productType: 'Bottoms', nouns: ['Cargo Pants', 'Wide-Leg Trousers', 'Straight Jeans', 'Shorts', 'Midi Skirt', 'Joggers', 'Chinos'], modifiers: ['Relaxed', 'Tailored', 'High-Rise', 'Linen', 'Stretch', 'Utility', 'Pleated'], options: [[SIZES, COLORS], [SIZES]], priceUsd: 58 },
      { productType: 'Dresses', nouns: ['Summer Dress', 'Maxi Dress', 'Slip Dress', 'Wrap Dress', 'Shirt Dress', 'Midi Dress'], modifiers: ['Linen', 'Satin', 'Floral', 'Smocked', 'Tiered', 'Cotton Poplin'], options: [[SIZES, COLORS], [SIZES]], priceUsd: 68 },
      { productType: 'Outerwear', nouns: ['Rain Jacket', 'Denim Jacket', 'Puffer Jacket', 'Wool Coat', 'Trench Coat', 'Fleece Jacket'], modifiers: ['Packable', 'Recycled', 'Waterproof', 'Oversized', 'Classic', 'Quilted'], options: [[SIZES, COLORS], [SIZES]], priceUsd: 118 },
      { productType: 'Shoes', nouns: ['Sneakers', 'Chelsea Boots', 'Sandals', 'Loafers', 'Running Shoes', 'Slides', 'Ballet Flats'], modifiers: ['Leather', 'Suede', 'Everyday', 'Vegan', 'Lightweight', 'Platform', 'Classic'], options: [[SHOE_SIZES, COLORS], [SHOE_SIZES]], priceUsd: 92 },
      { productType: 'Jewelry', nouns: ['Hoop Earrings', 'Pearl Necklace', 'Birthstone Ring', 'Charm Bracelet', 'Name Necklace', 'Stud Earrings', 'Signet Ring', 'Tennis Bracelet', 'Huggie Earrings'], modifiers: ['Dainty', 'Chunky', 'Minimalist', 'Personalised', 'Twisted', '18k Gold', 'Sterling Silver', 'Vintage'], options: [[METALS], []], priceUsd: 44 },
      { productType: 'Accessories', nouns: ['Baseball Cap', 'Beanie', 'Silk Scarf', 'Leather Belt', 'Sunglasses', 'Tote Bag', 'Hair Clip Set'], modifiers: ['Classic', 'Organic Cotton', 'Recycled', 'Oversized', 'Everyday', 'Woven'], options: [[COLORS], []], priceUsd: 34 },
    ],
    benefits: ['Ethically made in small runs', 'Made from organic cotton', 'Cut for a relaxed fit', 'Built to last for years', 'Machine washable at 30°', 'Designed in our studio'],
  },
  'Health & Beauty': {
    lines: [
      { productType: 'Skincare', nouns: ['Vitamin C Serum', 'Hyaluronic Serum', 'Night Cream', 'Cleansing Balm', 'Eye Cream', 'Clay Mask', 'Face Oil', 'SPF 50 Sunscreen', 'Toner'], modifiers: ['Brightening', 'Hydrating', 'Barrier Repair', 'Overnight', 'Gentle', 'Daily', 'Peptide'], options: [[VOLUMES], []], priceUsd: 32 },
      { productType: 'Makeup', nouns: ['Lip Oil', 'Tinted Moisturiser', 'Mascara', 'Blush Stick', 'Brow Gel', 'Concealer', 'Setting Spray', 'Lip Liner'], modifiers: ['Glossy', 'Long-Wear', 'Buildable', 'Dewy', 'Matte', 'Volumising'], options: [[SHADES], []], priceUsd: 24 },
      { productType: 'Hair Care', nouns: ['Hair Oil', 'Shampoo Bar', 'Scalp Serum', 'Hair Mask', 'Curl Cream', 'Dry Shampoo', 'Conditioner'], modifiers: ['Repairing', 'Nourishing', 'Rosemary', 'Volumising', 'Sulfate-Free', 'Argan'], options: [[VOLUMES], []], priceUsd: 26 },
      { productType: 'Supplements', nouns: ['Collagen Powder', 'Magnesium Gummies', 'Sleep Drops', 'Vitamin D3 Drops', 'Probiotic Capsules', 'Plant Protein', 'Greens Powder', 'Omega-3 Softgels'], modifiers: ['Daily', 'Marine', 'Vegan', 'Advanced', 'Sugar-Free', 'Organic'], options: [[PACKS], [FLAVORS], []], priceUsd: 36 },
      { productType: 'Wellness Devices', nouns: ['Massage Gun', 'Posture Corrector', 'Red Light Mask', 'Acupressure Mat', 'Heated Neck Wrap', 'Facial Roller'], modifiers: ['Pro', 'Mini', 'Cordless', 'Deep Tissue', 'Ergonomic', 'Rose Quartz'], options: [[COLORS], []], priceUsd: 78 },
    ],
    benefits: ['Dermatologist-tested', 'Vegan and cruelty-free', 'Fragrance-free', 'Made with clean ingredients', 'Gentle on sensitive skin', 'Third-party lab tested'],
  },
  'Home & Garden': {
    lines: [
      { productType: 'Bedding', nouns: ['Duvet Cover', 'Bedding Set', 'Pillowcase Set', 'Throw Blanket', 'Weighted Blanket', 'Fitted Sheet'], modifiers: ['Stonewashed Linen', 'Organic Cotton', 'Bamboo', 'Waffle', 'Percale', 'Chunky Knit'], options: [[BED_SIZES, COLORS], [BED_SIZES]], priceUsd: 88 },
      { productType: 'Decor', nouns: ['Ceramic Vase', 'Wall Art Print', 'Rattan Mirror', 'Cushion Cover', 'Table Lamp', 'Woven Basket', 'Photo Frame'], modifiers: ['Handmade', 'Minimalist', 'Textured', 'Boho', 'Scandi', 'Sculptural', 'Vintage'], options: [[COLORS], [BUNDLES], []], priceUsd: 54 },
      { productType: 'Candles', nouns: ['Scented Candle', 'Reed Diffuser', 'Candle Set', 'Wax Melts', 'Room Spray'], modifiers: ['Soy', 'Hand-Poured', 'Wooden Wick', 'Luxury', 'Travel'], options: [[SCENTS], []], priceUsd: 32 },
      { productType: 'Kitchen', nouns: ['Ceramic Mug', 'Chef Knife', 'Cast Iron Pan', 'Dinner Plate Set', 'Glass Carafe', 'Cutting Board', 'Oil Sprayer'], modifiers: ['Stoneware', 'Japanese Steel', 'Pre-Seasoned', 'Speckled', 'Olive Wood', 'Borosilicate'], options: [[COLORS], [BUNDLES], []], priceUsd: 42 },
      { productType: 'Garden', nouns: ['Planter', 'Expandable Garden Hose', 'Solar Lights', 'Herb Kit', 'Watering Can', 'Bird Feeder'], modifiers: ['Self-Watering', 'Terracotta', 'Weatherproof', 'Outdoor', 'Hanging'], options: [[LENGTHS], [COLORS], []], priceUsd: 38 },
    ],
    benefits: ['Handmade by artisans', 'Made from natural materials', 'Designed to last', 'Ships ready to use', 'Available in several colours', 'Packed without plastic'],
  },
  Electronics: {
    lines: [
      { productType: 'Audio', nouns: ['Wireless Earbuds', 'Bluetooth Speaker', 'Over-Ear Headphones', 'Sleep Headphones', 'Open-Ear Earbuds'], modifiers: ['Noise-Cancelling', 'Waterproof', 'Pro', 'Mini', 'Sport', 'Hi-Fi'], options: [[COLORS], []], priceUsd: 68 },
      { productType: 'Phone Accessories', nouns: ['Phone Case', 'Power Bank', 'Charging Station', 'Screen Protector', 'Car Mount', 'USB-C Cable', 'Phone Grip'], modifiers: ['Magnetic', 'MagSafe', '3-in-1', 'Fast-Charging', 'Slim', 'Clear', 'Braided'], options: [[PHONES], [COLORS], []], priceUsd: 29 },
      { productType: 'Smart Home', nouns: ['LED Strip Lights', 'Smart Plug', 'Mini Projector', 'Security Camera', 'Smart Bulb', 'Dash Cam', 'Sunset Lamp'], modifiers: ['Smart', 'Wi-Fi', '4K', 'Portable', 'App-Controlled', 'Wireless'], options: [[LENGTHS], [BUNDLES], []], priceUsd: 52 },
      { productType: 'Wearables', nouns: ['Smart Watch', 'Fitness Tracker', 'Smart Ring', 'Watch Strap'], modifiers: ['GPS', 'Slim', 'Sport', 'Titanium', 'Classic'], options: [[COLORS], []], priceUsd: 110 },
    ],
    benefits: ['Charges in under an hour', 'Backed by a two-year warranty', 'Works with every phone', 'Water resistant', 'Tested by 10,000 users', 'Set up in two minutes'],
  },
  'Animals & Pet Supplies': {
    lines: [
      { productType: 'Dog Supplies', nouns: ['No-Pull Harness', 'Orthopedic Dog Bed', 'Dog Leash', 'Chew Toy', 'Slow Feeder Bowl', 'Dog Collar', 'Poop Bag Holder'], modifiers: ['Padded', 'Reflective', 'Waterproof', 'Adjustable', 'Calming', 'Durable'], options: [[PET_SIZES, COLORS], [PET_SIZES]], priceUsd: 34 },
      { productType: 'Cat Supplies', nouns: ['Cat Tree', 'Self-Cleaning Litter Box', 'Cat Scratcher', 'Feather Wand', 'Cat Bed', 'Water Fountain'], modifiers: ['Modern', 'Cardboard', 'Sisal', 'Self-Cleaning', 'Cozy', 'Interactive'], options: [[COLORS], []], priceUsd: 46 },
      { productType: 'Pet Treats', nouns: ['Grain-Free Treats', 'Dental Chews', 'Salmon Oil', 'Calming Chews', 'Freeze-Dried Bites', 'Hip & Joint Chews'], modifiers: ['Natural', 'Single-Ingredient', 'Vet-Approved', 'Organic', 'Daily'], options: [[PACKS], [FLAVORS], []], priceUsd: 21 },
    ],
    benefits: ['Vet approved', 'Made from chew-proof materials', 'Machine washable', 'Loved by 20,000 pets', 'Made with natural ingredients', 'Sized for every breed'],
  },
  'Sporting Goods': {
    lines: [
      { productType: 'Fitness Equipment', nouns: ['Yoga Mat', 'Resistance Bands', 'Adjustable Dumbbells', 'Kettlebell', 'Jump Rope', 'Foam Roller', 'Pull-Up Bar'], modifiers: ['Non-Slip', 'Pro', 'Home Gym', 'Cork', 'Weighted', 'Fabric'], options: [[DUMBBELLS], [COLORS], []], priceUsd: 44 },
      { productType: 'Activewear', nouns: ['Leggings', 'Sports Bra', 'Running Shorts', 'Training Tee', 'Track Jacket', 'Biker Shorts'], modifiers: ['Seamless', 'Sculpt', 'Sweat-Wicking', 'High-Waisted', 'Lightweight', 'Ribbed'], options: [[SIZES, COLORS], [SIZES]], priceUsd: 46 },
      { productType: 'Outdoor Gear', nouns: ['Hydration Vest', 'Trekking Poles', 'Camping Hammock', 'Insulated Bottle', 'Padel Racket', 'Dry Bag'], modifiers: ['Ultralight', 'Carbon', 'Trail', 'Packable', 'Stainless Steel'], options: [[COLORS], []], priceUsd: 52 },
    ],
    benefits: ['Sweat-wicking', 'Squat-proof', 'Built for daily training', 'Tested by athletes', 'Non-slip and eco-friendly', 'Made from recycled fibres'],
  },
  'Food, Beverages & Tobacco': {
    lines: [
      { productType: 'Coffee & Tea', nouns: ['Cold Brew Coffee', 'Ceremonial Matcha', 'Loose Leaf Tea', 'Espresso Beans', 'Chai Blend', 'Decaf Coffee'], modifiers: ['Single Origin', 'Organic', 'House', 'Dark Roast', 'Small-Batch'], options: [[WEIGHTS, GRINDS], [WEIGHTS], []], priceUsd: 22 },
      { productType: 'Pantry', nouns: ['Hot Sauce', 'Olive Oil', 'Granola', 'Nut Butter', 'Spice Set', 'Pasta Sauce', 'Raw Honey'], modifiers: ['Small-Batch', 'Extra Virgin', 'Smoky', 'Organic', 'Honey', 'Wildflower'], options: [[PACKS], []], priceUsd: 16 },
      { productType: 'Snacks', nouns: ['Protein Bars', 'Dark Chocolate Bar', 'Trail Mix', 'Beef Jerky', 'Fruit Crisps', 'Energy Balls'], modifiers: ['High-Protein', 'Low-Sugar', 'Vegan', 'Keto', 'Salted Caramel'], options: [[FLAVORS, PACKS], [PACKS], []], priceUsd: 24 },
    ],
    benefits: ['Made from organic ingredients', 'Roasted to order', 'No added sugar', 'Sourced directly from farmers', 'Delivered fresh every month', 'Small-batch and hand-packed'],
  },
  'Toys & Games': {
    lines: [
      { productType: 'Toys', nouns: ['Wooden Puzzle', 'Building Blocks Set', 'Plush Toy', 'STEM Kit', 'Magnetic Tiles', 'Ride-On Car', 'Play Kitchen'], modifiers: ['Montessori', 'Wooden', 'Rainbow', 'Classic', 'Educational', 'Giant'], options: [[COLORS], [BUNDLES], []], priceUsd: 38 },
      { productType: 'Games', nouns: ['Family Board Game', 'Card Game', 'Jigsaw Puzzle', 'Party Game', 'Strategy Game'], modifiers: ['Cooperative', 'Travel', 'Deluxe', 'Classic', '1000-Piece'], options: [[BUNDLES], []], priceUsd: 28 },
    ],
    benefits: ['Made from sustainable wood', 'Safety tested', 'Designed with teachers', 'Screen-free fun', 'Built for little hands', 'Fun for the whole family'],
  },
  'Baby & Toddler': {
    lines: [
      { productType: 'Baby Essentials', nouns: ['Muslin Swaddle', 'Baby Carrier', 'Silicone Bib', 'Sleep Sack', 'Teething Toy', 'Diaper Bag', 'Play Mat', 'Romper'], modifiers: ['Organic Cotton', 'Bamboo', 'Ergonomic', 'Soft', 'Waterproof', 'Muslin'], options: [[BABY_SIZES, COLORS], [BABY_SIZES], [COLORS], []], priceUsd: 36 },
    ],
    benefits: ['Made from organic cotton', 'Gentle on delicate skin', 'Safety tested', 'Loved by parents', 'Machine washable', 'Free from BPA'],
  },
  'Luggage & Bags': {
    lines: [
      { productType: 'Bags', nouns: ['Carry-On Suitcase', 'Weekender Bag', 'Laptop Backpack', 'Crossbody Bag', 'Packing Cubes', 'Belt Bag', 'Toiletry Bag'], modifiers: ['Lightweight', 'Water-Resistant', 'Vegan Leather', 'Expandable', 'Canvas', 'Everyday'], options: [[COLORS], []], priceUsd: 82 },
    ],
    benefits: ['Fits every cabin allowance', 'Backed by a lifetime warranty', 'Made from recycled materials', 'Water resistant', 'Designed for travel'],
  },
};

/** Colour names for titles of products that do not vary by colour ("Linen Shirt - Sage"). */
export const COLOR_NAMES = COLORS.values;

/** For a shop category without its own words. */
export const GENERAL_WORDS: CategoryWords = {
  lines: [
    { productType: 'General', nouns: ['Gift Card', 'Gift Box', 'Tote Bag', 'Water Bottle', 'Notebook', 'Keychain'], modifiers: ['Classic', 'Signature', 'Limited Edition', 'Everyday'], options: [[COLORS], []], priceUsd: 30 },
  ],
  benefits: ['Made to last', 'Ships within two days', 'Designed by our team', 'Loved by thousands of customers'],
};

/** The closing sentence of a product description. */
export const DESCRIPTION_ENDINGS = [
  'Free shipping on orders over $50.',
  'Free returns within 30 days.',
  'Ships within 24 hours.',
  'Backed by our 100-day guarantee.',
  'Gift-wrapped on request.',
  '',
];

/** Title suffixes that set a product apart from its siblings. */
export const TITLE_SUFFIXES = ['2.0', 'Pro', 'Bundle', 'Set', 'Mini', 'Limited Edition'];

/** Currencies whose prices end in whole units (299 kr, ¥2,980) rather than cents. */
export const WHOLE_UNIT_CURRENCIES = new Set(['JPY', 'SEK', 'DKK', 'NOK', 'CZK', 'INR', 'HUF', 'MXN', 'ZAR']);

/** A shop price near `amount` (in units of `currency`), in cents: 24.99, 129.00, 299 kr, ¥5,980. */
export function charmPrice(rng: Rng, amount: number, currency: string): number {
  if (WHOLE_UNIT_CURRENCIES.has(currency)) {
    const step = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, amount))) - 1);
    const rounded = Math.max(step, Math.round(amount / step) * step);
    const ending = rounded > step && rng.chance(0.7) ? (currency === 'JPY' && step >= 100 ? 20 : 1) : 0;
    return (rounded - ending) * 100;
  }
  if (amount < 10) return Math.floor(amount) * 100 + (rng.chance(0.8) ? 99 : 95);
  if (amount < 200) {
    const base = Math.round(amount);
    return rng.weighted([[base * 100 - 1, 55], [base * 100 - 5, 15], [base * 100, 30]] as const);
  }
  const base = Math.round(amount / 5) * 5;
  return rng.chance(0.6) ? base * 100 - 1 : base * 100;
}
