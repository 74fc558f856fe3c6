/** Pages of the signed-in account: while the session is asked, wait; signed out, go to sign-in and come back. */
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso";
import { useSession } from "../shared/session.tsx";
import { Loading } from "../shared/ui.tsx";

export const RequireSession = ({ children }: { children: ComponentChildren }) => {
  const { state } = useSession();
  const location = useLocation();
  useEffect(() => {
    if (state.status !== "signed-out") return;
    const next = encodeURIComponent(location.url);
    location.route(`/sign-in?next=${next}${state.ended ? "&ended=1" : ""}`, true);
  }, [state, location]);
  if (state.status !== "signed-in") return <Loading what="Checking your session" />;
  return <>{children}</>;
};
