/**
 * Runs `onReturn` when the person comes back to the page: its tab shown again, or its window focused. What another
 * process changed meanwhile (a terminal chat saving a session) reaches the page by no event; this is when it looks.
 */
import { useEffect, useRef } from 'react';

export function usePageReturn(onReturn: () => void): void {
  const latest = useRef(onReturn);
  latest.current = onReturn;
  useEffect(() => {
    const returned = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    document.addEventListener('visibilitychange', returned);
    window.addEventListener('focus', returned);
    return () => {
      document.removeEventListener('visibilitychange', returned);
      window.removeEventListener('focus', returned);
    };
  }, []);
}
