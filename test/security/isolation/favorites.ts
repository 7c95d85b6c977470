import { declare, owned, type Owner } from './registry.js';

// Favorites: folder ids and saved ids of workspace A; B gets what a missing id gets. Ads come from the ads scenario,
// the shop is its shop, and one email is made here (the scenario has none).

const FAMILIES = { ads: { adId: 'facebook_9001' }, shops: null, emails: { emailId: 880_001 } } as const;
type Family = keyof typeof FAMILIES;

async function target(owner: Owner, family: Family): Promise<Record<string, unknown>> {
  if (family === 'ads') return { adId: 'facebook_9001' };
  if (family === 'shops') return { websiteId: (await owner.t.db.prisma.shop.findFirstOrThrow({ select: { id: true }, orderBy: { id: 'asc' } })).id };
  await owner.t.db.prisma.email.upsert({
    where: { id: 880_001 },
    create: { id: 880_001, fromAddress: 'news@example.com', sentAt: new Date('2026-11-01T00:00:00Z'), campaignType: 'promotional', subject: 'Sale', body: 'Sale', bodyLength: 4 },
    update: {},
  });
  return { emailId: 880_001 };
}

async function folder(owner: Owner, family: Family) {
  const res = await owner.t.rest('POST', `/favorites/${family}/folders`, { key: owner.key, body: { scope: 'workspace', name: `Secret ${family} ${Math.random().toString(36).slice(2, 8)}` } });
  return res.body.data as { id: string; name: string };
}

const readBack = (owner: Owner, family: Family) => async () => [
  (await owner.t.rest('GET', `/favorites/${family}/folders?scope=workspace&limit=100`, { key: owner.key })).body.data,
  (await owner.t.rest('GET', `/favorites/${family}?scope=workspace&limit=100`, { key: owner.key })).body.data,
];

/** A's folder (with a favorite in it), named by `argument`. */
const byFolder = (family: Family, argument: string) => async (owner: Owner) => {
  const made = await folder(owner, family);
  await owner.t.rest('POST', `/favorites/${family}`, { key: owner.key, body: { scope: 'workspace', ...(await target(owner, family)), folderId: made.id } });
  return { args: { [argument]: made.id }, secrets: [made.id, made.name], readBack: readBack(owner, family) };
};

/** A's saved favorite, by its saved id. */
const bySaved = (family: Family) => async (owner: Owner) => {
  const made = await folder(owner, family);
  const saved = await owner.t.rest('POST', `/favorites/${family}`, { key: owner.key, body: { scope: 'workspace', ...(await target(owner, family)), folderId: made.id } });
  return { args: { favoriteId: saved.body.data.id }, secrets: [made.id, made.name], readBack: readBack(owner, family) };
};

const scope = { scope: 'workspace' };
for (const family of Object.keys(FAMILIES) as Family[]) {
  const add = FAMILIES[family] ?? { websiteId: '5a0e0000-0000-4000-8000-000000000001' };
  const removePath = family === 'ads' ? ':adId' : family === 'shops' ? ':websiteId' : ':emailId';
  declare(`GET /favorites/${family}`, owned(byFolder(family, 'folderId'), scope));
  declare(`POST /favorites/${family}`, owned(byFolder(family, 'folderId'), { ...scope, ...add }));
  declare(`DELETE /favorites/${family}/${removePath}`, owned(byFolder(family, 'folderId'), { ...scope, ...add }));
  declare(`PATCH /favorites/${family}/saved/:favoriteId/folder`, owned(bySaved(family), scope));
  declare(`DELETE /favorites/${family}/saved/:favoriteId`, owned(bySaved(family), scope));
  declare(`GET /favorites/${family}/folders`, owned(byFolder(family, 'parentId'), scope));
  declare(`PATCH /favorites/${family}/folders/:folderId`, owned(byFolder(family, 'folderId'), { ...scope, name: 'Renamed by B' }));
  declare(`DELETE /favorites/${family}/folders/:folderId`, owned(byFolder(family, 'folderId'), { ...scope, mode: 'delete_items' }));
  declare(`PATCH /favorites/${family}/folders/:folderId/visibility`, owned(byFolder(family, 'folderId'), { ...scope, visibility: 'organization' }));
  if (family !== 'shops') declare(`POST /favorites/${family}/folders`, owned(byFolder(family, 'parentId'), { ...scope, name: 'Under a foreign parent' }));
}
declare('POST /favorites/ads/folders/:folderId/share', owned(byFolder('ads', 'folderId'), scope));
