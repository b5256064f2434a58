/**
 * The workspace page's one polite live region: the latest change another member made, in a short
 * sentence, for screen readers and, in small print, for everyone. Always in the page (a region added
 * with its first words is often not announced); each new sentence replaces the last (its key makes the
 * same words said again a new announcement).
 */
import type { Announcement } from '../hooks/use-workspace-changes';
import '../live-updates.css';

export function LiveAnnouncer({ announcement }: { announcement: Announcement | null }) {
  return (
    <p className="live-announcer muted" role="status">
      {announcement && <span key={announcement.id}>{announcement.text}</span>}
    </p>
  );
}
