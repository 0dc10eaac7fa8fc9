import { useEffect, useRef, useState } from 'preact/hooks';
import { currentSession, Session, signOut, whenSignedOut } from './api';
import { AuditPage } from './pages/audit';
import { ChatPage } from './pages/chat';
import { DeliveriesPage } from './pages/deliveries';
import { DeliveryPage } from './pages/delivery';
import { IntegrationsPage } from './pages/integrations';
import { InvitationPage } from './pages/invitation';
import { PeoplePage } from './pages/people';
import { RoomPage } from './pages/room';
import { RoomSettingsPage } from './pages/room-settings';
import { RoomsPage } from './pages/rooms';
import { SignInPage } from './pages/sign-in';
import { TokensPage } from './pages/tokens';
import { hrefOf, parseRoute, Route } from './routes';
import { countLabel } from './chat-list';
import { closeLiveChats, Sidebar } from './sidebar';
import { usePageTitle } from './ui';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export function App() {
  // undefined: not known yet; null: signed out.
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  // The session ended while the person was signed in (it expired, or was signed out elsewhere).
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [unread, setUnread] = useState(0);
  const toggle = useRef<HTMLButtonElement>(null);
  const signedIn = useRef(false);
  signedIn.current = !!session;
  const route = useRoute();

  useEffect(() => {
    whenSignedOut(() => {
      closeLiveChats();
      if (signedIn.current) setEnded(true);
      setSession(null);
    });
    currentSession().then(setSession, (err: Error) => setProblem(`The service did not answer: ${err.message}`));
  }, []);

  // A new screen is announced by its heading taking focus (for keyboard and screen-reader users).
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route, session]);
  // Following a link closes the drawer.
  useEffect(() => setDrawer(false), [route]);

  if (problem) return <main><h1 tabIndex={-1}>Chat</h1><p role="alert">{problem}</p></main>;
  if (session === undefined) return <main aria-busy="true"><p>Loading…</p></main>;
  // An invitation is taken signed out (and said to replace the session of whoever is signed in).
  if (route.page === 'invitation') return <InvitationPage key={route.token} token={route.token} signedInAs={session?.user.name ?? null} onSignedIn={setSession} />;
  // Signing in again shows the page that was open: the location's fragment is kept.
  if (session === null) {
    return <SignInPage notice={ended ? 'Your session has ended. Sign in again.' : null} onSignedIn={(s) => { setEnded(false); setSession(s); }} />;
  }

  const leave = async () => {
    closeLiveChats();
    await signOut().catch(() => undefined);
    setEnded(false);
    setSession(null);
  };
  const closeDrawer = (refocus: boolean) => {
    setDrawer(false);
    if (refocus) toggle.current?.focus();
  };
  return (
    <>
      <header class="top">
        <button ref={toggle} id="drawer-toggle" type="button" class="drawer-toggle secondary" aria-expanded={drawer} aria-controls="sidebar"
          onClick={() => (drawer ? closeDrawer(true) : setDrawer(true))}>
          Rooms and chats{unread > 0 && <> <span class="badge">{countLabel(unread)}</span><span class="visually-hidden"> unread</span></>}
        </button>
        <nav aria-label="Main">
          <a href={hrefOf({ page: 'rooms' })} aria-current={route.page === 'rooms' ? 'page' : undefined}>Rooms</a>
          <a href={hrefOf({ page: 'tokens' })} aria-current={route.page === 'tokens' ? 'page' : undefined}>API tokens</a>
          {session.user.is_group_admin && <a href={hrefOf({ page: 'people' })} aria-current={route.page === 'people' ? 'page' : undefined}>People</a>}
          {session.user.is_group_admin && <a href={hrefOf({ page: 'audit' })} aria-current={route.page === 'audit' ? 'page' : undefined}>Audit log</a>}
          <a href="/docs/api/v2">API reference</a>
        </nav>
        <span class="who">{session.user.name}</span>
        <button type="button" onClick={leave}>Sign out</button>
      </header>
      <div class="shell">
        <Sidebar session={session} route={route} open={drawer} onClose={closeDrawer} onTotal={setUnread} />
        {drawer && <div class="drawer-backdrop" aria-hidden="true" onClick={() => closeDrawer(true)} />}
        <main>{page(route, session)}</main>
      </div>
    </>
  );
}

function NotFound({ path }: { path: string }) {
  usePageTitle('Not found');
  return <><h1 tabIndex={-1}>Not found</h1><p>There is no page at {path}. <a href="#/rooms">Rooms</a></p></>;
}

function page(route: Route, session: Session) {
  switch (route.page) {
    case 'rooms': return <RoomsPage />;
    case 'room': return <RoomPage key={route.roomId} roomId={route.roomId} session={session} />;
    case 'integrations': return <IntegrationsPage key={route.roomId} roomId={route.roomId} />;
    case 'deliveries': return <DeliveriesPage key={`${route.roomId}/${route.webhookId}`} roomId={route.roomId} owner={{ kind: 'webhook', id: route.webhookId }} />;
    case 'bridge-deliveries': return <DeliveriesPage key={`${route.roomId}/b${route.bridgeId}`} roomId={route.roomId} owner={{ kind: 'bridge', id: route.bridgeId }} />;
    case 'delivery': return <DeliveryPage key={`${route.roomId}/${route.webhookId}/${route.deliveryId}`} roomId={route.roomId} owner={{ kind: 'webhook', id: route.webhookId }} deliveryId={route.deliveryId} />;
    case 'bridge-delivery': return <DeliveryPage key={`${route.roomId}/b${route.bridgeId}/${route.deliveryId}`} roomId={route.roomId} owner={{ kind: 'bridge', id: route.bridgeId }} deliveryId={route.deliveryId} />;
    case 'chat': return <ChatPage key={route.userId} userId={route.userId} session={session} />;
    case 'tokens': return <TokensPage session={session} />;
    case 'audit': return <AuditPage />;
    case 'people': return <PeoplePage session={session} />;
    case 'room-settings': return <RoomSettingsPage key={route.roomId} roomId={route.roomId} session={session} />;
    // Shown before the sign-in page (App), whether or not someone is signed in.
    case 'invitation': return null;
    case 'not-found': return <NotFound path={route.path} />;
  }
}
