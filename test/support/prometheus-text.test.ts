import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseScrape, seriesValue } from './prometheus-text.js';

describe('parseScrape', () => {
  it("reads prom-client's labelled counters and histograms, escapes included", async () => {
    const registry = new Registry();
    const counter = new Counter({
      name: 'c_total',
      help: 'c',
      labelNames: ['route'],
      registers: [registry],
    });
    const histogram = new Histogram({
      name: 'h_seconds',
      help: 'h',
      labelNames: ['route'],
      buckets: [0.1, 1],
      registers: [registry],
    });
    counter.inc({ route: 'a "quoted" \\ one' }, 2);
    histogram.observe({ route: '/a' }, 0.05);
    histogram.observe({ route: '/b' }, 0.5);
    histogram.observe({ route: '/b' }, 5);
    const families = parseScrape(await registry.metrics());
    expect(seriesValue(families, 'c_total', { route: 'a "quoted" \\ one' })).toBe(2);
    expect(seriesValue(families, 'h_seconds_count', { route: '/a' })).toBe(1);
    expect(seriesValue(families, 'h_seconds_count', { route: '/b' })).toBe(2);
    expect(seriesValue(families, 'h_seconds_bucket', { route: '/b', le: '1' })).toBe(1);
    expect(seriesValue(families, 'h_seconds_sum', { route: '/b' })).toBe(5.5);
  });

  it('refuses what Prometheus would not read, or would read wrongly', () => {
    const family = '# HELP x x\n# TYPE x counter\n';
    expect(() => parseScrape(`${family}x{a="1"} one\n`)).toThrow(/Malformed value/);
    expect(() => parseScrape(`${family}x{a=1} 1\n`)).toThrow(/Malformed labels/);
    expect(() => parseScrape(`${family}y 1\n`)).toThrow(/outside its family/);
    expect(() => parseScrape(`${family}x{a="1"} 1\nx{a="1"} 2\n`)).toThrow(/twice/);
    const histogram = '# HELP h h\n# TYPE h histogram\n';
    expect(() =>
      parseScrape(`${histogram}h_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n`),
    ).toThrow(/not cumulative/);
    expect(() =>
      parseScrape(`${histogram}h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 2\n`),
    ).toThrow(/\+Inf bucket/);
  });
});
