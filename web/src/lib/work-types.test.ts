import { expect, it } from 'vitest';
import { workTypeLabel } from './work-types';

it('reads providers’ types as words', () => {
  expect(
    [
      'JournalArticle',
      'journal-article',
      'posted-content',
      'preprint',
      'BookSection',
      'proceedings-article',
      'dataset',
      'book_chapter',
    ].map(workTypeLabel),
  ).toEqual([
    'Journal article',
    'Journal article',
    'Preprint',
    'Preprint',
    'Book section',
    'Conference paper',
    'Dataset',
    'Book chapter',
  ]);
});
