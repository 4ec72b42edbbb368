import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

/** How long a navigation runs before the bar shows: a quick one does not flash it. */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar across the top while the next page loads (its code arrives on first visit): the
 * page being left stays on screen until then, and the bar says the click was taken.
 */
export function NavigationProgress() {
  const loading = useNavigation().state !== 'idle';
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!loading) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [loading]);
  return shown ? <div className="nav-progress" role="progressbar" aria-label="Loading the page" /> : null;
}
