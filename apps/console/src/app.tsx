import { useEffect, useState } from 'preact/hooks';
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
  const [problem, setProblem] = useState<string | null>(null);
  const route = useRoute();

  useEffect(() => {
    whenSignedOut(() => setSession(null));
    currentSession().then(setSession, (err: Error) => setProblem(`The service did not answer: ${err.message}`));
  }, []);

  // A new screen is announced by its heading taking focus (for keyboard and screen-reader users).
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route, session]);

  if (problem) return <main><h1 tabIndex={-1}>Chat</h1><p role="alert">{problem}</p></main>;
  if (session === undefined) return <main aria-busy="true"><p>Loading…</p></main>;
  // An invitation is taken signed out (and said to replace the session of whoever is signed in).
  if (route.page === 'invitation') return <InvitationPage key={route.token} token={route.token} signedInAs={session?.user.name ?? null} onSignedIn={setSession} />;
  if (session === null) return <SignInPage onSignedIn={setSession} />;

  const leave = async () => {
    await signOut().catch(() => undefined);
    setSession(null);
  };
  return (
    <>
      <header class="top">
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
      <main>{page(route, session)}</main>
    </>
  );
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
    case 'not-found': return <><h1 tabIndex={-1}>Not found</h1><p>There is no page at {route.path}. <a href="#/rooms">Rooms</a></p></>;
  }
}
