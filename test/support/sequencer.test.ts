import { describe, expect, it } from 'vitest';
import { interleave } from './sequencer.js';

const file = (project: string, name: string) => ({ project: { name: project }, name });

describe('the order test files start in', () => {
  it('alternates waiting (browser, e2e) and computing (app, app-shared) files, each kind in its order, the rest after', () => {
    const files = [
      file('app', 'a1'),
      file('app-shared', 'a2'),
      file('app', 'a3'),
      file('browser', 'b1'),
      file('e2e', 'e1'),
      file('unit', 'u1'),
      file('unit', 'u2'),
    ];
    expect(interleave(files).map(({ name }) => name)).toEqual([
      'b1',
      'a1',
      'e1',
      'a2',
      'a3',
      'u1',
      'u2',
    ]);
  });

  it('keeps every file once when one kind is missing', () => {
    expect(
      interleave([file('browser', 'b1'), file('browser', 'b2'), file('unit', 'u1')]).map(
        ({ name }) => name,
      ),
    ).toEqual(['b1', 'b2', 'u1']);
    expect(interleave([])).toEqual([]);
  });
});
