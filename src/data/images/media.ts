import { encodeImage } from './decode.js';
import { designOfKey, drawDesign, SERVED_SIZE } from './draw.js';
import { PLACEHOLDER_MP4 } from './placeholder-video.js';

// The kinds of the server's own media (served at GET /media/..., src/plugins/use-media.ts) and how one is made from
// its path: the path's key (a product design number, else an id) picks the design, its kind the size and format.
// Image search reads the server's own pictures here too, rather than over the network.

export type MediaKind = { path: RegExp; type: 'image/jpeg' | 'image/png' | 'video/mp4'; width: number; height: number; design: (key: string) => number };

const KEY = '([\\w-]{1,64})';
const kind = (path: string, type: MediaKind['type'], width = 0, height = width): MediaKind => ({ path: new RegExp(`^/media/${path}$`), type, width, height, design: designOfKey });
const jpeg = (path: string, width: number, height = width) => kind(path, 'image/jpeg', width, height);
const png = (path: string, width: number, height = width) => kind(path, 'image/png', width, height);

const KINDS: MediaKind[] = [
  { ...jpeg('products/(\\d{1,10})\\.jpg', SERVED_SIZE), design: Number },
  jpeg('products/(\\d{1,20}/ads/\\d{1,2})\\.jpg', 240),
  jpeg(`ads/${KEY}-thumb\\.jpg`, 160),
  jpeg(`ads/${KEY}\\.jpg`, 480),
  kind(`ads/${KEY}\\.mp4`, 'video/mp4'),
  png(`pages/${KEY}\\.png`, 128),
  png(`shops/${KEY}/logo\\.png`, 128),
  png(`shops/${KEY}/favicon\\.png`, 32),
  jpeg(`shops/${KEY}/screenshot\\.jpg`, 360, 720),
  jpeg(`landing-pages/${KEY}/desktop\\.jpg`, 480, 800),
  jpeg(`landing-pages/${KEY}/mobile\\.jpg`, 240, 520),
  jpeg(`landing-pages/${KEY}/head\\.jpg`, 480, 270),
  jpeg(`emails/screenshots/${KEY}\\.jpg`, 300, 900),
  png(`emails/${KEY}/logo\\.png`, 160, 80),
  jpeg('emails/([\\w-]{1,64}/[a-z0-9-]{1,100})\\.jpg', 160),
  jpeg(`tiktok/avatars/${KEY}\\.jpg`, 128),
  jpeg(`tiktok/${KEY}-cover\\.jpg`, 270, 480),
  jpeg(`tiktok/${KEY}\\.jpg`, 270, 480),
  kind(`tiktok/${KEY}\\.mp4`, 'video/mp4'),
  png(`google/advertisers/${KEY}\\.png`, 128),
  png(`google/${KEY}\\.png`, 300, 250),
  kind(`google/${KEY}\\.mp4`, 'video/mp4'),
  png('facets/(?:apps|technologies|pixels)/([a-z0-9-]{1,64})\\.png', 64),
];

/** The kind a path names and its key, or null. */
export function mediaKindOf(pathname: string): { kind: MediaKind; key: string } | null {
  for (const kind of KINDS) {
    const match = kind.path.exec(pathname);
    if (match) return { kind, key: match[1] };
  }
  return null;
}

/** The bytes of a media of `kind` (an image drawn and encoded; every video is the placeholder clip), or null for a key past the designs. */
export async function renderMedia(kind: MediaKind, key: string): Promise<Buffer | null> {
  if (kind.type === 'video/mp4') return PLACEHOLDER_MP4;
  const design = kind.design(key);
  if (design > 0x7fffffff) return null;
  return encodeImage(drawDesign(design, kind.width, kind.height), kind.type === 'image/png' ? 'png' : 'jpeg');
}

/** The picture the server serves at `pathname` (`/media/...`), or null when it serves none there (or a video). */
export async function ownMediaPicture(pathname: string): Promise<Buffer | null> {
  const found = mediaKindOf(pathname);
  if (!found || found.kind.type === 'video/mp4') return null;
  return renderMedia(found.kind, found.key);
}
