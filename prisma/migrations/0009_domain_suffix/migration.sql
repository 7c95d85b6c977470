-- Domain filters (a host and its subdomains), written by hand: Prisma's datamodel cannot express expression
-- indexes. Reversed, "shop.example.com" and "example.com" share a prefix, so the filter
--   reverse(domain) = reverse(host) OR reverse(domain) LIKE reverse(host) || '.%'
-- is an index range scan instead of a scan of every row (src/schema/shared/domains.ts writes it).

CREATE INDEX "ads_landingPageDomain_reversed_idx" ON "ads" (reverse("landingPageDomain") text_pattern_ops);
CREATE INDEX "shops_domain_reversed_idx" ON "shops" (reverse("domain") text_pattern_ops);
