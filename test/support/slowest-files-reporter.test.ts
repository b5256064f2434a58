import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { formatSlowestFiles, slowestFiles } from './slowest-files-reporter.js';

/** What the reporter reads of a test module: its path, its timings and its tests. */
function moduleTaking(file: string, collectMs: number, testsMs: number, tests: number): TestModule {
  return {
    relativeModuleId: file,
    diagnostic: () => ({ collectDuration: collectMs, setupDuration: 0, duration: testsMs }),
    children: {
      allTests: () => Array.from({ length: tests }, (_, index) => ({ index }))[Symbol.iterator](),
    },
  } as unknown as TestModule;
}

describe('slowest files', () => {
  it('lists the slowest files first, counting import and tests, at most as many as asked', () => {
    const modules = [
      moduleTaking('a.test.ts', 500, 1_000, 3),
      moduleTaking('b.test.ts', 4_000, 8_000, 1),
      moduleTaking('c.test.ts', 100, 200, 2),
    ];
    expect(slowestFiles(modules, 2)).toEqual([
      { file: 'b.test.ts', seconds: 12, tests: 1 },
      { file: 'a.test.ts', seconds: 1.5, tests: 3 },
    ]);
  });

  it('prints one line a file with its seconds and tests, and nothing for no files', () => {
    expect(
      formatSlowestFiles([
        { file: 'b.test.ts', seconds: 12, tests: 1 },
        { file: 'a.test.ts', seconds: 1.5, tests: 3 },
      ]),
    ).toBe(
      'slowest test files:\n     12.0 s  b.test.ts (1 test)\n      1.5 s  a.test.ts (3 tests)\n',
    );
    expect(formatSlowestFiles([])).toBe('');
  });
});
