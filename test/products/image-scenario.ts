import { drawDesign, FINGERPRINT_SIZE, productImagePath } from '../../src/data/images/draw.js';
import { cubeLiteral, fingerprint, fingerprintId, type Rgba } from '../../src/data/images/fingerprint.js';
import type { TestDatabase } from '../support/database.js';
import { P, productsScenario, SHOP } from './scenario.js';

// The products scenario with pictures: each product's image is a drawn design, fingerprinted as the generator does.
// A1 and C1 show the same picture (design 11), sold by Glow Skin and Home Nest, two shops of one brand (one main page).

export const DESIGN: Record<keyof typeof P, number> = { A1: 11, C1: 11, B1: 22, A2: 33, A3: 44, A4: 55, B2: 66, B3: 77, C2: 88 };

export async function imageScenario(db: TestDatabase): Promise<void> {
  await productsScenario(db);
  const { prisma } = db;
  for (const [name, design] of Object.entries(DESIGN) as [keyof typeof P, number][]) {
    const drawn = fingerprint(drawDesign(design, FINGERPRINT_SIZE));
    const id = fingerprintId(drawn);
    await prisma.$executeRaw`INSERT INTO "image_fingerprints" ("id", "phash", "features") VALUES (${id}, ${drawn.phash}, ${cubeLiteral(drawn.features)}::cube) ON CONFLICT DO NOTHING`;
    await prisma.product.update({ where: { id: P[name] }, data: { imageUrl: productImagePath(design), imageFingerprintId: id } });
  }
  await prisma.advertiser.create({ data: { id: '3000000000000001', name: 'Glow Group' } });
  await prisma.advertiserShop.createMany({
    data: [
      { advertiserId: '3000000000000001', shopId: SHOP.A, isMain: true, isPrimary: true },
      { advertiserId: '3000000000000001', shopId: SHOP.C, isMain: true },
    ],
  });
}

/** `image` resampled (nearest pixel) to width × height after cutting `crop` of its size from each side. */
export function resample(image: Rgba, width: number, height: number, crop = 0): Rgba {
  const data = new Uint8Array(width * height * 4);
  const cx = Math.floor(image.width * crop);
  const cy = Math.floor(image.height * crop);
  const sw = image.width - 2 * cx;
  const sh = image.height - 2 * cy;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const source = ((cy + Math.floor((y * sh) / height)) * image.width + cx + Math.floor((x * sw) / width)) * 4;
      data.set(image.data.subarray(source, source + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data };
}
