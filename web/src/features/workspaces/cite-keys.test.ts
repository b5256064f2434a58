import { describe, expect, it } from 'vitest';
import { citeCommand } from './cite-keys';

describe('copying selected keys', () => {
  it('writes \\cite, \\citep and pandoc citations in the order given, keys as they are', () => {
    const keys = ['vaswani2017attention', 'Smith:2020/deep-nets'];
    expect(citeCommand('cite', keys)).toBe('\\cite{vaswani2017attention,Smith:2020/deep-nets}');
    expect(citeCommand('citep', keys)).toBe('\\citep{vaswani2017attention,Smith:2020/deep-nets}');
    expect(citeCommand('pandoc', keys)).toBe('[@vaswani2017attention; @Smith:2020/deep-nets]');
    expect(citeCommand('cite', ['one'])).toBe('\\cite{one}');
  });
});
