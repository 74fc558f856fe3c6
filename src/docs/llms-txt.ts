/**
 * GET /llms.txt: the config-writing guide for agents (the llms.txt convention: a Markdown file at the site's root),
 * linked from the MCP server's instructions. The grammar in brief, worked examples, the limits and the error format.
 * Its numbers come from the constants that enforce them, and its examples are the JSON blocks below, each sent to the
 * API by test/worker/llms-txt.test.ts (the jobs validated, the template saved and rendered), so the guide cannot
 * drift from what the service accepts.
 */
import { limits, prices } from "@media-render/contract/config";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { MAX_UPLOAD_BYTES } from "../files/retention.ts";
import { MAX_METADATA_BYTES } from "../jobs/metadata.ts";
import { EXAMPLES } from "@media-render/contract/examples";
import { API_LIMIT, JOB_CREATE_LIMIT } from "../lib/rate-limit.ts";
import { MOUNTS } from "../paths.ts";
import { MAX_TEMPLATE_VARIABLES } from "../templates/limits.ts";

/** The worked examples, in the order the guide shows them (test/worker/llms-txt.test.ts sends each). */
export const GUIDE_EXAMPLES = {
  card: EXAMPLES.imageJob,
  banner: {
    type: "image",
    config: {
      width: 1200,
      height: 630,
      format: "jpeg",
      quality: 85,
      layers: [
        {
          type: "gradient",
          width: 1200,
          height: 630,
          gradient: { type: "linear", colors: ["#0f172a", "#1e40af"], direction: "horizontal" },
        },
        {
          type: "text",
          text: "Spring sale",
          googleFont: "Poppins:700",
          fontSize: 96,
          color: "#ffffff",
          position: { x: 0.5, y: 0.4, originX: "center", originY: "center" },
        },
        {
          type: "text",
          text: "Everything 20% off until Sunday",
          fontSize: 40,
          color: "#cbd5e1",
          wrap: true,
          width: 900,
          align: "center",
          x: 600,
          y: 360,
        },
      ],
    },
  },
  video: EXAMPLES.videoJob,
  callback: {
    type: "image",
    config: {
      width: 400,
      height: 400,
      backgroundColor: "#fef3c7",
      layers: [{ type: "text", text: "Order 1042", fontSize: 48, position: "center" }],
    },
    webhookUrl: "https://example.com/hooks/render",
    metadata: { orderId: "1042", customer: "c_77" },
  },
  template: {
    name: "Price card",
    type: "image",
    config: {
      width: 800,
      height: 400,
      backgroundColor: "{{background}}",
      layers: [
        { type: "text", text: "{{title}}", fontSize: 56, x: 40, y: 40 },
        { type: "text", text: "{{price}}", fontSize: 40, x: 40, y: 140, when: "price" },
        {
          type: "rectangle",
          x: 600,
          y: 20,
          width: 180,
          height: 60,
          fill: "#dc2626",
          when: { var: "badge", equals: "sale" },
        },
      ],
    },
    variables: [{ name: "background", type: "colour", default: "#ffffff" }],
  },
  render: {
    variables: { title: "Blue mug", price: "€12", badge: "sale" },
    metadata: { sku: "MUG-BLUE" },
  },
  /** A refused request, and (below) the answer the service gives it. */
  invalid: {
    type: "image",
    config: { width: 0, height: 100, layers: [{ type: "text", text: "Hi", fontSize: -5 }] },
  },
  refusal: {
    success: false,
    error: "Validation failed",
    details: {
      errors: [
        { field: "config.width", message: "must be at least 1", code: "VALIDATION_ERROR" },
        { field: "config.layers[0].fontSize", message: "must be greater than 0", code: "VALIDATION_ERROR" },
      ],
    },
  },
};

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

const kib = (bytes: number) => `${bytes / 1024} KiB`;

/** The guide's text (Markdown). */
export const guideText = (origin: string): string => `# Media rendering service

> Renders images and videos from JSON configs over an HTTP API (and MCP at ${origin}${MOUNTS.mcp}). This guide is
> for agents writing configs: how to render, the grammar in brief, worked examples that validate, the limits, and the
> error format. Full JSON Schemas: ${origin}${MOUNTS.schemas}/image and ${origin}${MOUNTS.schemas}/video (MCP:
> get_schema, get_image_schema, get_video_schema, resources schema://image and schema://video). Every route:
> ${origin}${MOUNTS.docs} (OpenAPI 3.1).

## How to render

1. Send the API key in \`x-api-key\` (MCP: that header or \`Authorization: Bearer\`).
2. Media files: upload them (POST ${MOUNTS.files}/upload, multipart \`file\`) and use the answer's \`storageUrl\`
   (\`/image/...\`) as a layer's \`path\`, or name a public https URL that ends in the file's extension.
3. Check the config: POST ${MOUNTS.jobs}/validate with \`{ "type": "image" | "video", "config": {...} }\` always
   answers 200 with \`isValid\`, \`errors\` (each at its field) and the \`estimatedTokens\`.
4. Create it: POST ${MOUNTS.jobs} with the same body, optionally \`webhookUrl\` (its render events are posted there,
   signed) and \`metadata\` (your own JSON object, echoed on the job and in every event). 201 with \`jobId\`.
5. Follow it: GET ${MOUNTS.jobs}/{jobId} (or its event stream, ${MOUNTS.jobs}/{jobId}/events) until \`status\` is
   COMPLETED, then download \`outputFileId\`: GET ${MOUNTS.files}/{outputFileId}/download, or a signed link without a
   key (POST ${MOUNTS.files}/{fileId}/link).
6. Many renders of one design: save a template (POST ${MOUNTS.templates}) and render it with variables
   (POST ${MOUNTS.templates}/{id}/renders, or a batch of rows).

## The grammar in brief

- Unknown properties are errors, so a typo never renders silently wrong. Sizes are pixels, times seconds.
- Image config: \`width\`, \`height\` (${limits.IMAGE_MIN_SIZE}-${limits.IMAGE_MAX_SIZE}), \`backgroundColor\`, \`format\` (png, jpeg,
  webp), \`quality\`, \`defaults\` (\`layer\`, \`layerType.<type>\`), and ${limits.IMAGE_MIN_LAYERS}-${limits.IMAGE_MAX_LAYERS}
  \`layers\` drawn bottom to top: \`image\` (\`path\`, \`fit\`), \`text\` (\`text\`, \`fontSize\`, \`color\`, \`align\`,
  \`wrap\` with \`width\`, \`googleFont\` "Family:weight" or an uploaded \`fontPath\`), \`rectangle\`, \`circle\`,
  \`gradient\` (\`gradient: { type, colors, direction }\`), \`html\` (HTML and CSS in a sandbox, no network).
- Placing an image layer: \`x\`/\`y\` from the top-left, or \`position\`: a name (center, top, bottom, top-left,
  top-right, center-left, center-right, bottom-left, bottom-right) or \`{ x, y, originX, originY }\` with x and y as
  fractions of the canvas. Also \`opacity\` (0-1), \`rotation\` (degrees), \`blur\`.
- Video config: \`width\`, \`height\` (default ${limits.VIDEO_DEFAULTS.width}x${limits.VIDEO_DEFAULTS.height}), \`fps\` (default
  ${limits.VIDEO_DEFAULTS.fps}), \`format\` (mp4, mov, webm, gif; audio mp3, wav, m4a), and \`clips\` played in order, each
  with \`duration\` (default ${limits.VIDEO_DEFAULTS.clipDuration}) and \`layers\`: \`video\` (\`path\`, \`cutFrom\`,
  \`cutTo\`, \`speed\` 0.25-4, \`loop\`), \`image\` and \`image-overlay\` (animated GIF/WebP play; \`frameTime\`: one frame
  of a video), \`title\`, \`subtitle\`, \`news-title\`, \`title-background\`,
  \`slide-in-text\`, \`fill-color\`, \`linear-gradient\`, \`radial-gradient\`, \`html\`, \`audio\`... Transitions:
  \`defaults.transition\` or a clip's \`transition\` (\`{ name, duration }\`: fade, wipe directions, and every
  gl-transitions name). Sound: \`audioFilePath\`, \`audioTracks\`, \`keepSourceAudio\`. \`globalLayers\` lie over the
  whole timeline.
- Colours: \`#rgb\`, \`#rrggbb\`, \`#rrggbbaa\`, \`rgb()\`, \`hsl()\`, \`transparent\` or a CSS name.
- Templates: \`{{name}}\` in any string of a saved config is a variable (a string that is only a placeholder takes the
  value's type). A layer may carry a condition, read only when a template is rendered: \`"when": "logo"\` (shown
  when the variable is set), \`"when": { "var": "logo", "set": false }\` (when it is not), \`"when": { "var":
  "badge", "equals": "sale" }\` (when its value, as text, is that). A job's own config never takes \`when\`.

## Worked examples

Each of these validates as written (the service's tests send them).

A card:

${json(GUIDE_EXAMPLES.card)}

A social banner with a gradient, a catalogue font and a centred title:

${json(GUIDE_EXAMPLES.banner)}

A video of two clips with a fade:

${json(GUIDE_EXAMPLES.video)}

A job that calls back (POST ${MOUNTS.jobs}): its render events go to \`webhookUrl\`, signed with the account's
job-callback secret (GET ${MOUNTS.webhooksV2}/job-callbacks; Standard Webhooks headers \`webhook-id\`,
\`webhook-timestamp\`, \`webhook-signature\`), with the metadata in every event's \`data.metadata\`:

${json(GUIDE_EXAMPLES.callback)}

A template (POST ${MOUNTS.templates}) whose price layer is shown only when a row gives a price, and whose badge only
when \`badge\` is "sale":

${json(GUIDE_EXAMPLES.template)}

Rendered once (POST ${MOUNTS.templates}/{id}/renders; MCP: render_template):

${json(GUIDE_EXAMPLES.render)}

## Limits

| What | Limit |
| --- | --- |
| image size | ${limits.IMAGE_MIN_SIZE}-${limits.IMAGE_MAX_SIZE} px a side, ${limits.IMAGE_MAX_LAYERS} layers |
| video size and rate | ${limits.VIDEO_MIN_SIZE}-${limits.VIDEO_MAX_SIZE} px a side, ${limits.VIDEO_MIN_FPS}-${limits.VIDEO_MAX_FPS} fps |
| video length | ${limits.VIDEO_MAX_DURATION} s in all, ${limits.VIDEO_MAX_CLIPS} clips, ${limits.VIDEO_MAX_LAYERS_PER_CLIP} layers a clip, ${limits.VIDEO_MAX_GLOBAL_LAYERS} global layers, ${limits.VIDEO_MAX_AUDIO_TRACKS} audio tracks |
| html layers | ${limits.HTML_MAX_LAYERS_PER_JOB} per job, ${kib(limits.HTML_MAX_BYTES)} of HTML and ${kib(limits.CSS_MAX_BYTES)} of CSS each |
| text | ${limits.MAX_TEXT_LENGTH} characters a layer |
| uploads | ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB a file |
| metadata | ${MAX_METADATA_BYTES} bytes of JSON |
| template variables | ${MAX_TEMPLATE_VARIABLES} |
| requests | ${API_LIMIT.limit} per ${API_LIMIT.windowMs / 60_000} minutes and ${JOB_CREATE_LIMIT.limit} job creations a minute per key (429 with \`Retry-After\`) |
| cost | image ${prices.TOKENS_IMAGE_BASE} tokens + ${prices.TOKENS_IMAGE_PER_LAYER} a layer; video ${prices.TOKENS_VIDEO_BASE} + ${prices.TOKENS_VIDEO_PER_SECOND} a started second (reserved at creation, failed jobs free) |

Concurrent jobs and the monthly tokens depend on the plan: GET ${MOUNTS.billing}/usage.

## Errors

Every answer is an envelope: \`{ "success": true, "data": ... }\` or \`{ "success": false, "error": "...",
"details": {...} }\`. A refused request (400) lists each problem at its field. This job:

${json(GUIDE_EXAMPLES.invalid)}

is answered:

${json(GUIDE_EXAMPLES.refusal)}

Codes you will meet: VALIDATION_ERROR (the grammar), INVALID_JOB_TYPE, INVALID_CONFIG_TYPE, FILE_NOT_FOUND (a
storageUrl that is not one of your files), URL_NOT_ALLOWED (a private address, or a webhookUrl that is not https on a
public address), URL_NOT_FOUND and URL_IMPORT_FAILED (a public URL that could not be fetched), METADATA_TOO_LARGE,
MISSING_VARIABLE, UNKNOWN_VARIABLE and TYPE_MISMATCH (template variables, fields \`variables.<name>\`),
INVALID_CONDITION (a template's \`when\`). Statuses: 401 no or a bad key, 402 not enough tokens (\`details.required\`,
\`details.available\`), 403 the key lacks the permission, 404 not found or not yours, 413 body too large, 422 media that
cannot be read, 429 too many requests or concurrent jobs (\`details.activeJobs\`, \`details.maxAllowed\`).
\`warnings\` (code IGNORED_PROPERTY) name properties accepted that change nothing; they do not stop a job.
`;

/** `/llms.txt`: the guide, as text (no key: it describes, it grants nothing). */
export const llmsRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.body(guideText(new URL(c.req.url).origin), 200, {
    "content-type": "text/markdown; charset=utf-8",
    "cache-control": "public, max-age=300",
  }),
);
