// A slice of the Google product taxonomy (real ids and names): the top level and the branches the synthetic
// market sells in. Shops, Google advertisers and the category facets use these ids.

export type TaxonomyEntry = { id: number; name: string; parentId: number | null };

export const GOOGLE_TAXONOMY: readonly TaxonomyEntry[] = [
  { id: 1, name: 'Animals & Pet Supplies', parentId: null },
  { id: 2, name: 'Pet Supplies', parentId: 1 },
  { id: 8, name: 'Arts & Entertainment', parentId: null },
  { id: 111, name: 'Business & Industrial', parentId: null },
  { id: 141, name: 'Cameras & Optics', parentId: null },
  { id: 166, name: 'Apparel & Accessories', parentId: null },
  { id: 1604, name: 'Clothing', parentId: 166 },
  { id: 187, name: 'Shoes', parentId: 166 },
  { id: 188, name: 'Jewelry', parentId: 166 },
  { id: 222, name: 'Electronics', parentId: null },
  { id: 223, name: 'Audio', parentId: 222 },
  { id: 262, name: 'Communications', parentId: 222 },
  { id: 278, name: 'Computers', parentId: 222 },
  { id: 412, name: 'Food, Beverages & Tobacco', parentId: null },
  { id: 413, name: 'Beverages', parentId: 412 },
  { id: 422, name: 'Food Items', parentId: 412 },
  { id: 436, name: 'Furniture', parentId: null },
  { id: 469, name: 'Health & Beauty', parentId: null },
  { id: 491, name: 'Health Care', parentId: 469 },
  { id: 2915, name: 'Personal Care', parentId: 469 },
  { id: 473, name: 'Cosmetics', parentId: 2915 },
  { id: 536, name: 'Home & Garden', parentId: null },
  { id: 696, name: 'Decor', parentId: 536 },
  { id: 638, name: 'Kitchen & Dining', parentId: 536 },
  { id: 4171, name: 'Linens & Bedding', parentId: 536 },
  { id: 537, name: 'Baby & Toddler', parentId: null },
  { id: 632, name: 'Hardware', parentId: null },
  { id: 783, name: 'Media', parentId: null },
  { id: 888, name: 'Vehicles & Parts', parentId: null },
  { id: 922, name: 'Office Supplies', parentId: null },
  { id: 988, name: 'Sporting Goods', parentId: null },
  { id: 990, name: 'Exercise & Fitness', parentId: 988 },
  { id: 1011, name: 'Outdoor Recreation', parentId: 988 },
  { id: 1239, name: 'Toys & Games', parentId: null },
  { id: 1253, name: 'Toys', parentId: 1239 },
  { id: 3793, name: 'Games', parentId: 1239 },
  { id: 2092, name: 'Software', parentId: null },
  { id: 5181, name: 'Luggage & Bags', parentId: null },
];

const byId = new Map(GOOGLE_TAXONOMY.map((entry) => [entry.id, entry]));
const byName = new Map(GOOGLE_TAXONOMY.map((entry) => [entry.name, entry.id]));

/** "Health & Beauty > Personal Care > Cosmetics". */
export function taxonomyPath(id: number): string {
  const names: string[] = [];
  for (let entry = byId.get(id); entry; entry = entry.parentId === null ? undefined : byId.get(entry.parentId)) names.unshift(entry.name);
  return names.join(' > ');
}

/** The id of a category name (top-level names as shops store them). */
export function taxonomyId(name: string): number | undefined {
  return byName.get(name);
}

/** Sub-categories of a top-level category, for advertisers that sell in a narrower branch. */
export function childrenOf(id: number): number[] {
  return GOOGLE_TAXONOMY.filter((entry) => entry.parentId === id).map((entry) => entry.id);
}
