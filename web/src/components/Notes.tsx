/** What the host said of a session or its file, or warned of in a call or a turn, as the terminal prints it. */
import { showDirectionControls } from '../../../src/text/direction-controls';

export function Notes({ label, notes, className = 'notes' }: { label: string; notes: string[]; className?: string }) {
  if (notes.length === 0) return null;
  return (
    <ul className={className} aria-label={label}>
      {notes.map((note, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notes are known by their place.
        <li key={index}>{showDirectionControls(note)}</li>
      ))}
    </ul>
  );
}
