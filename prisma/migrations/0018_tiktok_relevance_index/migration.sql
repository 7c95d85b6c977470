-- CreateIndex
CREATE INDEX "tiktok_items_relevanceScore_idx" ON "tiktok_items"("relevanceScore");
