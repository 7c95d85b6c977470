-- CreateIndex
CREATE INDEX "shops_relatedDomains_idx" ON "shops" USING GIN ("relatedDomains");

-- CreateIndex
CREATE INDEX "shops_currency_idx" ON "shops"("currency");

-- CreateIndex
CREATE INDEX "shops_defaultLanguage_idx" ON "shops"("defaultLanguage");

-- CreateIndex
CREATE INDEX "shops_monthlyRevenueUsd_idx" ON "shops"("monthlyRevenueUsd");

-- CreateIndex
CREATE INDEX "products_shopId_priceUsd_idx" ON "products"("shopId", "priceUsd");

-- CreateIndex
CREATE INDEX "products_shopId_createdAt_idx" ON "products"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "emails_language_idx" ON "emails"("language");

-- CreateIndex
CREATE INDEX "shops_myShopifyDomain_idx" ON "shops"("myShopifyDomain");

-- Written by hand (Prisma's datamodel cannot express expression indexes): POST /v1/emails/query with
-- searchType email matches sender addresses case-insensitively.
CREATE INDEX "emails_fromAddress_lower_idx" ON "emails" (lower("fromAddress"));
