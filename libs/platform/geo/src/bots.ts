import { isbot } from 'isbot';
import { BoundedCache } from './bounded-cache';

/** Link-preview fetchers, named explicitly so a change of isbot's list cannot drop one. */
const PREVIEW_BOTS =
  /facebookexternalhit|facebot|twitterbot|slackbot|slack-imgproxy|linkedinbot|whatsapp|telegrambot|discordbot|pinterest|redditbot|applebot|embedly|skypeuripreview|vkshare|iframely|googlebot|bingbot|yandexbot|duckduckbot|mastodon|snapchat|bitlybot|outbrain|quora link preview|google-inspectiontool|viber|line\/|kakaotalk-scrap|zoominfobot|msnbot/i;

const verdicts = new BoundedCache<string, boolean>(20_000);

/**
 * The one bot rule of the edge (preview pages, click caps) and the worker (`is_bot` of a stored
 * click): no user agent (a script), anything `isbot` flags, and the link-preview fetchers above.
 * Memoized per user agent (isbot is one large regular expression per call).
 */
export function isBotUserAgent(userAgent: string | null | undefined): boolean {
  if (!userAgent) return true;
  let bot = verdicts.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent) || PREVIEW_BOTS.test(userAgent);
    verdicts.set(userAgent, bot);
  }
  return bot;
}
