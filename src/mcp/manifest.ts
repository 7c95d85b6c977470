// The tool names of the public service this server answers to (issue #40): a test calls each on the demo market.
export const PUBLIC_TOOL_NAMES = [
  'search_ads', 'search_advertisers', 'search_shops', 'find_similar_shops', 'find_winning_products', 'search_google_ads_library', 'search_tiktok_library',
  'search_emails', 'get_email_html', 'lookup', 'lookup_filter_ids', 'scan_ad', 'brief_competitor', 'creative_inspiration_pack', 'analyze_tracked_brand',
  'analyze_brand_changes', 'analyze_shop_emails', 'get_brandtracker_scaling_ads', 'get_brandtracker_transcripts', 'daily_radar', 'list_tracked_brands',
  'add_to_brandtracker', 'create_brandtracker_folder', 'move_tracked_brands', 'delete_brandtracker_folder', 'list_favorites', 'create_favorite_folder',
  'add_favorite_item', 'check_credits', 'usage_get',
] as const;
