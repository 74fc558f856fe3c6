/**
 * The signed-in state of a page: asked once at load (GET /api/v1/auth/session: the account and the CSRF token),
 * set by signing in, cleared by signing out or by any answer 401 (the session ended elsewhere). The credential
 * itself is the HttpOnly cookie: no script ever holds it, nothing is kept in storage.
 */
import { createContext, type ComponentChildren } from "preact";
import { useCallback, useContext, useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, data, onApiError, setCsrfToken } from "./api.ts";
import type { Account, BrowserSession } from "./api-types.ts";

export type SessionState =
  | { status: "loading" }
  | { status: "signed-out"; ended?: boolean }
  | { status: "signed-in"; user: Account };

interface SessionValue {
  state: SessionState;
  /** After POST /api/v1/auth/session answered. */
  signedIn: (session: BrowserSession) => void;
  /** The account changed (profile saved). */
  updateUser: (user: Account) => void;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export const SessionProvider = ({ children }: { children: ComponentChildren }) => {
  const [state, setState] = useState<SessionState>({ status: "loading" });

  const signedIn = useCallback((session: BrowserSession) => {
    setCsrfToken(session.csrfToken);
    setState({ status: "signed-in", user: session.user });
  }, []);

  useEffect(() => {
    data(api.GET("/api/v1/auth/session")).then(signedIn, () => setState({ status: "signed-out" }));
  }, [signedIn]);

  useEffect(
    () =>
      onApiError((error) => {
        if (error.status !== 401) return;
        setCsrfToken(null);
        setState((s) => (s.status === "signed-in" ? { status: "signed-out", ended: true } : s));
      }),
    [],
  );

  const value = useMemo<SessionValue>(
    () => ({
      state,
      signedIn,
      updateUser: (user) => setState({ status: "signed-in", user }),
      signOut: async () => {
        try {
          await data(api.DELETE("/api/v1/auth/session"));
        } catch (e) {
          // Already signed out is signed out; anything else is worth saying.
          if (!(e instanceof ApiError) || e.status !== 401) throw e;
        }
        setCsrfToken(null);
        setState({ status: "signed-out" });
      },
    }),
    [state, signedIn],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
};

export const useSession = (): SessionValue => {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return value;
};
