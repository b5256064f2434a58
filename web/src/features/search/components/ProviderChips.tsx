/**
 * The provider chips: one toolbar (WAI-ARIA APG toolbar pattern), so the whole row is one Tab stop;
 * the arrow keys, Home and End move between the chips (roving tabindex) and Space/Enter toggles one.
 * Each chip says its state as it changes (searching, its count, or why it did not answer), and its
 * description (aria-describedby) says the same in a sentence for screen readers. A chip that cannot
 * be chosen (its provider is not set up) stays reachable, marked aria-disabled, so its reason can be read.
 */
import { Fragment, useRef, useState, type KeyboardEvent } from 'react';
import type { components } from '../../../api/schema';
import {
  describeProviderState,
  explainProviderState,
  PROVIDER_NAMES,
  type ProviderId,
  type ProviderState,
} from '../search-state';

type Provider = components['schemas']['ProvidersReply']['providers'][number];

interface ProviderChipsProps {
  providers: Provider[];
  chosen: ReadonlySet<ProviderId>;
  /** What each chip shows: null before any search of the current words. */
  stateOf: (id: ProviderId) => ProviderState | null;
  onToggle: (id: ProviderId) => void;
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

export function ProviderChips({ providers, chosen, stateOf, onToggle }: ProviderChipsProps) {
  const [current, setCurrent] = useState(0);
  const chips = useRef<Array<HTMLButtonElement | null>>([]);
  const active = Math.min(current, Math.max(0, providers.length - 1));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = MOVES[event.key];
    if (!move || providers.length === 0) return;
    event.preventDefault();
    const next = move(active, providers.length);
    setCurrent(next);
    chips.current[next]?.focus();
  };

  return (
    <div role="toolbar" aria-label="Sources" className="chips" onKeyDown={onKeyDown}>
      {providers.map((provider, index) => {
        const state: ProviderState | null = provider.enabled
          ? stateOf(provider.id)
          : { kind: 'disabled' };
        const failed = state !== null && state.kind !== 'ok' && state.kind !== 'pending';
        const reasonId = `source-${provider.id}-state`;
        return (
          <Fragment key={provider.id}>
            <button
              ref={(element) => {
                chips.current[index] = element;
              }}
              type="button"
              className={`chip${failed ? ' chip-failed' : ''}${state?.kind === 'pending' ? ' chip-pending' : ''}`}
              tabIndex={index === active ? 0 : -1}
              aria-pressed={provider.enabled && chosen.has(provider.id)}
              aria-disabled={provider.enabled ? undefined : true}
              aria-describedby={state ? reasonId : undefined}
              title={provider.description}
              onFocus={() => setCurrent(index)}
              onClick={() => provider.enabled && onToggle(provider.id)}
            >
              <span>{PROVIDER_NAMES[provider.id]}</span>
              {state && <span className="chip-status">{describeProviderState(state)}</span>}
            </button>
            {/* Outside the button: its description, not part of its name. */}
            {state && (
              <span id={reasonId} className="visually-hidden">
                {explainProviderState(PROVIDER_NAMES[provider.id], state)}
              </span>
            )}
          </Fragment>
        );
      })}
    </div>
  );
}
