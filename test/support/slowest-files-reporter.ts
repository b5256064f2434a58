/**
 * A Vitest reporter beside the others: at the end of a run, the slowest test files (wall time from
 * the start of their import to the end of their last hook), so a file that grows slow is seen in
 * every `npm test` and every CI log. `SLOWEST_FILES=<n>` sets how many (10 by default).
 */
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

/** The `count` slowest files, slowest first. */
export function slowestFiles(modules: ReadonlyArray<TestModule>, count: number): FileTime[] {
  return modules
    .map((module) => {
      const diagnostic = module.diagnostic();
      const seconds =
        (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
      return {
        file: module.relativeModuleId,
        seconds,
        tests: [...module.children.allTests()].length,
      };
    })
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

export function formatSlowestFiles(files: FileTime[]): string {
  if (files.length === 0) return '';
  const lines = files.map(
    ({ file, seconds, tests }) =>
      `  ${seconds.toFixed(1).padStart(7)} s  ${file} (${tests} test${tests === 1 ? '' : 's'})`,
  );
  return `slowest test files:\n${lines.join('\n')}\n`;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = Number.parseInt(process.env.SLOWEST_FILES ?? '', 10);
    process.stdout.write(
      formatSlowestFiles(slowestFiles(modules, Number.isFinite(count) && count > 0 ? count : 10)),
    );
  }
}
