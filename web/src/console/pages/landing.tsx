/** `/`: what the service is, a picture it rendered with the config that made it, and the ways in. */
import { BUILDER_PATH } from "../../shared/builder-link.ts";
import { DOCS_UI } from "../../shared/layout.tsx";
import { useSession } from "../../shared/session.tsx";
import { useTitle } from "../../shared/ui.tsx";
import exampleImage from "../assets/example.webp";
import { EXAMPLE_JOB } from "../example.ts";

const FEATURES = [
  [
    "Images",
    "Text with 20 bundled font families, shapes, gradients, photos and HTML layers, as PNG, JPEG or WebP.",
  ],
  [
    "Videos",
    "Clips, transitions, titles, voice-over from text and captions, as MP4, MOV (with alpha), WebM or GIF; " +
      "audio only, posters, thumbnails and single frames too.",
  ],
  [
    "Templates and batches",
    "A config with {{variables}}, a CSV of rows, one ZIP of outputs, every row validated first.",
  ],
  ["Webhooks", "Signed render events, retried on a schedule, with a delivery log and replays."],
] as const;

export const Landing = () => {
  useTitle("JSON in, images and videos out");
  const { state } = useSession();
  return (
    <>
      <section class="hero">
        <div>
          <h1>JSON in, images and videos out</h1>
          <p class="lead">
            Media Render is an HTTP API that renders images and videos from a JSON configuration. Describe the
            layers, send one request, get the file: for product shots, social cards, captioned clips and
            thousands of variants from one template.
          </p>
          <div class="actions">
            {state.status === "signed-in" ? (
              <a class="button" href="/console">
                Open the console
              </a>
            ) : (
              <>
                <a class="button" href="/sign-up">
                  Sign up free
                </a>
                <a class="button secondary" href="/sign-in">
                  Sign in
                </a>
              </>
            )}
            <a class="button secondary" href={BUILDER_PATH}>
              Try the builder
            </a>
            <a class="button secondary" href={DOCS_UI}>
              API docs
            </a>
          </div>
        </div>
        <div class="example">
          <figure>
            <img
              src={exampleImage}
              width={1200}
              height={630}
              alt="A sale banner: 'Summer sale' in large white letters on a blue gradient, a yellow circle and a yellow 'Shop now' button"
            />
            <figcaption>Rendered by this service from the config below.</figcaption>
          </figure>
        </div>
      </section>
      <section class="grid" aria-label="What it renders">
        {FEATURES.map(([title, text]) => (
          <div class="panel" key={title}>
            <h2>{title}</h2>
            <p>{text}</p>
          </div>
        ))}
      </section>
      <section class="panel">
        <h2>The request behind the picture</h2>
        <p>
          <code>POST /api/v1/jobs</code> with an API key (<code>x-api-key</code>), then follow the job or
          receive a webhook when it is done:
        </p>
        <pre class="json" tabIndex={0} aria-label="Example job request body">
          {JSON.stringify(EXAMPLE_JOB, null, 2)}
        </pre>
      </section>
    </>
  );
};
