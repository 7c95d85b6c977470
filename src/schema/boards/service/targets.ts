import type { Context } from '../../../context.js';
import { notFound, validationError } from '../../../errors.js';
import type { BoardItem } from '../../../generated/prisma/client.js';
import { normaliseAdId } from '../../ads/service.js';
import type { BoardItemType } from '../enums.js';

// What a board item saves: one target column per item type. A target is checked to exist before it is saved.

export type Target =
  | { itemType: 'ad'; adId: string }
  | { itemType: 'shop'; shopId: string }
  | { itemType: 'email'; emailId: number }
  | { itemType: 'product'; productId: string }
  | { itemType: 'advertiser'; advertiserId: string }
  | { itemType: 'landing'; landingPageUrl: string };

type TargetColumns = Pick<BoardItem, 'itemType' | 'adId' | 'shopId' | 'emailId' | 'productId' | 'advertiserId' | 'landingPageUrl'>;

export function targetIdOf(item: TargetColumns): string {
  switch (item.itemType) {
    case 'ad': return item.adId!;
    case 'shop': return item.shopId!;
    case 'email': return String(item.emailId);
    case 'product': return item.productId!;
    case 'advertiser': return item.advertiserId!;
    case 'landing': return item.landingPageUrl!;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = (argument: string, rule: string) => validationError([{ argument, expected: [`${argument} ${rule}`] }]);

/** The target of `type` named by `targetId` (its format checked, then its existence: 404 when unknown). */
export async function findTarget(context: Context, type: BoardItemType, targetId: string, argument = 'targetId'): Promise<Target> {
  const prisma = context.prisma;
  const missing = () => notFound(`${type[0].toUpperCase()}${type.slice(1)} "${targetId}"`);
  switch (type) {
    case 'ad': {
      const ad = await prisma.ad.findUnique({ where: { id: normaliseAdId(targetId) }, select: { id: true } });
      if (!ad) throw missing();
      return { itemType: 'ad', adId: ad.id };
    }
    case 'shop': {
      if (!UUID.test(targetId)) throw invalid(argument, 'must be a shop UUID');
      const shop = await prisma.shop.findUnique({ where: { id: targetId.toLowerCase() }, select: { id: true } });
      if (!shop) throw missing();
      return { itemType: 'shop', shopId: shop.id };
    }
    case 'email': {
      const id = /^\d{1,10}$/.test(targetId) ? Number(targetId) : NaN;
      if (!(id >= 1 && id <= 2 ** 31 - 1)) throw invalid(argument, 'must be a positive integer email id');
      const email = await prisma.email.findUnique({ where: { id }, select: { id: true } });
      if (!email) throw missing();
      return { itemType: 'email', emailId: email.id };
    }
    case 'product': {
      const product = await prisma.product.findUnique({ where: { id: targetId }, select: { id: true } });
      if (!product) throw missing();
      return { itemType: 'product', productId: product.id };
    }
    case 'advertiser': {
      const advertiser = await prisma.advertiser.findUnique({ where: { id: targetId }, select: { id: true } });
      if (!advertiser) throw missing();
      return { itemType: 'advertiser', advertiserId: advertiser.id };
    }
    case 'landing': {
      const page = await prisma.landingPage.findUnique({ where: { url: targetId }, select: { url: true } });
      if (!page) throw missing();
      return { itemType: 'landing', landingPageUrl: page.url };
    }
  }
}
