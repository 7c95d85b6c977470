import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { Prisma } from '../../../generated/prisma/client.js';

type Query = { select?: Prisma.AdvertiserSelect | null; include?: Prisma.AdvertiserInclude | null };

/** GET /v1/advertisers/{advertiserId}: the advertiser loaded with Pothos' `query`; not_found when there is none. */
export async function advertiserDetail<Q extends Query>(context: Pick<Context, 'prisma'>, advertiserId: string, query: Q): Promise<Prisma.AdvertiserGetPayload<Q>> {
  const advertiser = await context.prisma.advertiser.findUnique({ where: { id: advertiserId }, relationLoadStrategy: 'join', ...query });
  if (!advertiser) throw notFound(`Advertiser "${advertiserId}"`);
  return advertiser as Prisma.AdvertiserGetPayload<Q>;
}
