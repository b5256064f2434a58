/**
 * A Markdown text box with Write and Preview tabs: Write is the text area (kept mounted, so that the
 * form and the draft keep it), Preview shows the text as it will read (lib/markdown.ts).
 */
import * as Tabs from '@radix-ui/react-tabs';
import { useState, type ComponentProps } from 'react';
import { TextAreaField } from './Field';
import { Markdown } from './Markdown';

const SYNTAX = 'Markdown: **bold**, *italic*, # heading, - list, [link](https://…), `code`.';

export function MarkdownField({
  value,
  hint,
  ...field
}: ComponentProps<typeof TextAreaField> & { value: string }) {
  const [tab, setTab] = useState('write');
  return (
    <Tabs.Root value={tab} onValueChange={setTab} className="markdown-field">
      <Tabs.List className="tabs-list tabs-list-small" aria-label="Write or preview">
        <Tabs.Trigger value="write" className="tabs-trigger">
          Write
        </Tabs.Trigger>
        <Tabs.Trigger value="preview" className="tabs-trigger">
          Preview
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="write" forceMount hidden={tab !== 'write'}>
        <TextAreaField
          {...field}
          hint={
            hint ? (
              <>
                {hint} {SYNTAX}
              </>
            ) : (
              SYNTAX
            )
          }
        />
      </Tabs.Content>
      <Tabs.Content value="preview" className="markdown-preview">
        {value.trim() ? (
          <Markdown text={value} />
        ) : (
          <p className="muted">Nothing to preview yet.</p>
        )}
      </Tabs.Content>
    </Tabs.Root>
  );
}
