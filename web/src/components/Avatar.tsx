/**
 * The user's avatar: the stored image, or their initials when there is none (or it cannot be shown),
 * on the profile page and in the header.
 */
import { useState } from 'react';

/** Up to two initials of a display name ("Ada Lovelace" → "AL"), "?" without one. */
function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : words;
  return letters.map((word) => Array.from(word ?? '')[0]?.toUpperCase() ?? '').join('') || '?';
}

/**
 * `alt` names the image for assistive technology; `decorative` leaves it to the surrounding link's name.
 * An address that fails to load (a deleted file) shows the initials instead of a broken image.
 */
export function Avatar({
  src,
  name,
  alt,
  size,
  decorative = false,
}: {
  src: string | null;
  name: string | null | undefined;
  alt: string;
  size: 'small' | 'large';
  decorative?: boolean;
}) {
  const [broken, setBroken] = useState<string | null>(null);
  const className = size === 'small' ? 'avatar avatar-small' : 'avatar';
  if (src && broken !== src) {
    return (
      <img
        className={className}
        src={src}
        alt={decorative ? '' : alt}
        width={size === 'small' ? 32 : 96}
        height={size === 'small' ? 32 : 96}
        onError={() => setBroken(src)}
      />
    );
  }
  return (
    <span
      className={`${className} avatar-empty`}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : alt}
      aria-hidden={decorative || undefined}
    >
      {initialsOf(name)}
    </span>
  );
}
