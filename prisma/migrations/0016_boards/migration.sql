-- DropIndex
DROP INDEX "board_items_boardId_idx";

-- CreateIndex
CREATE INDEX "board_items_boardId_createdAt_idx" ON "board_items"("boardId", "createdAt");

-- A thing is saved once per place (scope, owner, board or the family's root, type, target): a second save of the
-- same thing finds the first (POST /v1/favorites/* and POST /v1/boards/{boardId}/items answer created false),
-- even when two requests race. Written by hand: the schema language has no expression indexes.
CREATE UNIQUE INDEX "board_items_saved_once" ON "board_items" (
    "workspaceId", "scope", COALESCE("ownerUserId", '00000000-0000-0000-0000-000000000000'::uuid), COALESCE("boardId", ''), "itemType",
    COALESCE("adId", "shopId"::text, "emailId"::text, "productId", "advertiserId", "landingPageUrl")
);
