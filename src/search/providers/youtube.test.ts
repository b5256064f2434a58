import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import { createTestOutbound, factoryOptions, startFixtureServer } from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createYoutubeProvider } from './youtube.js';

const KEY = 'yt-test-key';

describe('youtube provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/search',
        query: { q: 'surfing', key: KEY },
        fixture: 'youtube/search_list_q-surfing_page1.json',
      },
      {
        path: '/search',
        query: { q: 'channels', key: KEY },
        fixture: 'youtube/search_list_type-channel.json',
      },
      {
        path: '/search',
        query: { q: 'news', key: KEY },
        fixture: 'youtube/search_list_forDeveloper_prev-next-pagetoken.json',
      },
      {
        path: '/search',
        query: { q: 'forbidden' },
        status: 403,
        fixture: 'youtube/error_403_permission_denied.json',
      },
      {
        path: '/search',
        query: { q: 'bad key' },
        status: 400,
        fixture: 'youtube/error_400_keyInvalid.json',
      },
      {
        path: '/videos',
        query: { id: /^D-lhorsDlUQ/ },
        fixture: 'youtube/videos_list_multiple_ids.json',
      },
      {
        path: '/videos',
        query: { id: 'WuyFniRMrxY,VQIZkYkIynE,q_WM_pMp0Hg,wDbyThHkctA,IQdYDkwtvoo' },
        status: 500,
        body: 'oops',
      },
      { path: '/videos', fixture: 'youtube/videos_list_multiple_ids.json' },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = (apiKey: string | null = KEY) =>
    createYoutubeProvider(factoryOptions(server.url, outbound, apiKey ? { apiKey } : {}));

  it('is enabled only with an API key', () => {
    expect(provider(null).isEnabled()).toBe(false);
    expect(provider('').isEnabled()).toBe(false);
    expect(provider().isEnabled()).toBe(true);
  });

  it('searches videos, decodes HTML entities in titles, and asks /videos for the same ids', async () => {
    const answer = await provider().search('surfing', { limit: 25 });
    expect(answer.total).toBe(1000000);
    expect(answer.records).toHaveLength(25);
    const [first, second] = answer.records;
    expect(first).toMatchObject({
      id: 'youtube:gQ_1zX-F_No',
      provider: 'youtube',
      title: 'SURFING HAWAII’S BEST WAVE WITH MY GIRLFRIEND (PIPELINE)',
      authors: ["Jamie O'Brien"],
      publishedDate: '2019-12-05',
      url: 'https://www.youtube.com/watch?v=gQ_1zX-F_No',
      type: 'video',
      citations: 0,
      citationsKnown: false,
    });
    expect(second?.title).toBe('SURFING PERFECT PIPE & BACKDOOR || SUNRISE SHACK!');
    expect(first?.details?.creators).toEqual([{ role: 'author', literal: "Jamie O'Brien" }]);
    const titles = answer.records.map((record) => record.title);
    expect(titles).toContain("World's best surfing 2017");
    expect(titles).toContain("DANGEROUS SEWER DRAIN SURFING! | Jamie O'Brien");

    const search = server
      .requestsTo('/search')
      .filter((r) => r.query.get('q') === 'surfing')
      .at(-1);
    expect(search?.query.get('type')).toBe('video');
    expect(search?.query.get('part')).toBe('snippet');
    expect(search?.query.get('maxResults')).toBe('25');
    const videos = server.requestsTo('/videos').at(-1);
    expect(videos?.query.get('id')?.split(',')).toHaveLength(25);
    expect(videos?.query.get('id')?.startsWith('gQ_1zX-F_No,i2hewkFijuY,')).toBe(true);
    expect(videos?.query.get('key')).toBe(KEY);
  });

  it('skips channel hits (id.channelId, no videoId) without asking /videos', async () => {
    const before = server.requestsTo('/videos').length;
    expect((await provider().search('channels', { limit: 5 })).records).toEqual([]);
    expect(server.requestsTo('/videos').length).toBe(before);
  });

  it('keeps the search snippets when /videos fails', async () => {
    const answer = await provider().search('news', { limit: 5 });
    expect(answer.records.map((record) => record.title)).toEqual([
      'NBC Nightly News Broadcast (Full) - March 13th, 2020 | NBC Nightly News',
      'Coronavirus precautions sweep around the world | DW News',
      'Trump Holds News Conference On Coronavirus Pandemic | NBC News (Live Stream Recording)',
      'ABC News Prime: Coronavirus national emergency, life under quarantine, stock market',
      'Coronavirus: Europe at the epicentre of the pandemic - BBC News',
    ]);
  });

  it('looks up a video by id through /videos (full description)', async () => {
    const record = await provider().lookup('D-lhorsDlUQ');
    expect(record).toMatchObject({
      id: 'youtube:D-lhorsDlUQ',
      title: 'What are Actions on Google (Assistant on Air)',
      authors: ['Google Developers'],
      publishedDate: '2019-03-21',
    });
    expect(record?.abstract).toContain('Actions on Google docs → http://bit.ly/2YabdS5');
    // The channel as an organisation's name, a CSL motion picture published on YouTube.
    expect(record?.details).toEqual({
      creators: [{ role: 'author', literal: 'Google Developers' }],
      type: 'motion_picture',
      publisher: 'YouTube',
      language: 'en',
    });
    expect(await provider().lookup('not a video id')).toBeNull();
  });

  it('maps 403 and 400 error bodies to upstream errors with their reasons', async () => {
    const forbidden = await provider()
      .search('forbidden', { limit: 5 })
      .catch((error: unknown) => error);
    expect(forbidden).toBeInstanceOf(ProviderError);
    expect(forbidden).toMatchObject({ kind: 'upstream', status: 403 });
    expect((forbidden as Error).message).toContain('The caller does not have permission');
    expect((forbidden as Error).message).toContain('SERVICE_UNAVAILABLE');
    const badKey = await provider()
      .search('bad key', { limit: 5 })
      .catch((error: unknown) => error);
    expect(badKey).toMatchObject({ kind: 'upstream', status: 400 });
    expect((badKey as Error).message).toContain('keyInvalid');
  });
});
