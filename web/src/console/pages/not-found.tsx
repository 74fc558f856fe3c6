/** Any other path under the console's routes. */
import { useTitle } from "../../shared/ui.tsx";

export const NotFound = () => {
  useTitle("Not found");
  return (
    <div class="panel narrow">
      <h1>Page not found</h1>
      <p>
        There is no page here. Go to the <a href="/console">console</a> or the <a href="/">start page</a>.
      </p>
    </div>
  );
};
