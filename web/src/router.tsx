import { useEffect, useState } from 'react';

/**
 * Hash routes (`#/compose?post=pst_…`): the API serves one index.html at `/`, so every page of
 * the console lives behind the hash and a reload lands on the same page.
 */
export interface Route {
  path: string;
  params: URLSearchParams;
}

function read(): Route {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function navigate(to: string) {
  window.location.hash = to.startsWith('#') ? to : `#${to}`;
}

export function Link(props: {
  to: string;
  children: React.ReactNode;
  className?: string;
  current?: boolean;
}) {
  return (
    <a href={`#${props.to}`} className={props.className} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
