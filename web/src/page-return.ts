/**
 * Runs `onReturn` when the person comes back to the page: its tab shown again, or its window focused. What another
 * process changed meanwhile (a terminal chat saving a session) reaches the page by no event; this is when it looks.
 * A return counts once after the page was left (tab hidden or window blurred): coming back to a tab fires both
 * `visibilitychange` and `focus`, and each would otherwise look again. A page opened hidden counts as left.
 */
import { useEffect, useRef } from 'react';

export function usePageReturn(onReturn: () => void): void {
  const latest = useRef(onReturn);
  latest.current = onReturn;
  useEffect(() => {
    // A page opened hidden (a tab opened in the background) was never seen: its first showing is a return too.
    let away = document.visibilityState === 'hidden';
    const left = () => {
      away = true;
    };
    const returned = () => {
      if (!away || document.visibilityState !== 'visible') return;
      away = false;
      latest.current();
    };
    const visibilityChanged = () => (document.visibilityState === 'hidden' ? left() : returned());
    document.addEventListener('visibilitychange', visibilityChanged);
    window.addEventListener('blur', left);
    window.addEventListener('focus', returned);
    return () => {
      document.removeEventListener('visibilitychange', visibilityChanged);
      window.removeEventListener('blur', left);
      window.removeEventListener('focus', returned);
    };
  }, []);
}
