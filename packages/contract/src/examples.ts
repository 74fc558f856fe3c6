/**
 * Examples of the OpenAPI document. Each request example is sent to the API by test/worker/docs.test.ts, and every
 * example is checked against its schema there, so an example that stops being valid fails the suite instead of
 * misleading a reader.
 */
export const EXAMPLES = {
  imageJob: {
    type: "image",
    config: {
      width: 640,
      height: 360,
      backgroundColor: "#1e90ff",
      layers: [
        { type: "rectangle", x: 40, y: 40, width: 200, height: 120, fill: "#ffffff", borderRadius: 16 },
        { type: "text", text: "Hello", x: 320, y: 280, fontSize: 40, color: "#ffffff", align: "center" },
      ],
    },
  },
  videoJob: {
    type: "video",
    config: {
      width: 640,
      height: 360,
      fps: 25,
      defaults: { transition: { name: "fade", duration: 0.5 } },
      clips: [
        { duration: 2, layers: [{ type: "title", text: "First" }] },
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#1e90ff" },
            { type: "title", text: "Second" },
          ],
        },
      ],
    },
  },
  link: { expiresIn: 3600 },
  jobCreated: {
    jobId: "job_k2x7q9w3m1v8",
    status: "PENDING",
    type: "IMAGE",
    estimatedTokens: 4,
    createdAt: "2026-11-21T10:00:00.000Z",
    warnings: [],
  },
  invalidJob: {
    isValid: false,
    errors: [{ field: "config.width", message: "width must be at least 1", code: "VALIDATION_ERROR" }],
    warnings: [
      {
        field: "config.verbose",
        message: "an editly logging option with no effect here (job progress and errors come with the job)",
        code: "IGNORED_PROPERTY",
      },
    ],
    estimatedTokens: 0,
    detectedResources: [],
  },
  downloadLink: {
    url: "http://127.0.0.1:8787/api/v1/files/hk2x7q9w3m1v8tz4dse0a1b2c/download?expires=1795264800&signature=3f9a",
    expiresAt: "2026-11-21T11:00:00.000Z",
  },
} as const;

/** The builder page's gallery: ready-made jobs to start from (each validated by test/worker/docs.test.ts). */
export const GALLERY = [
  {
    name: "Hello card",
    description: "A coloured card with a shape and centred text",
    job: EXAMPLES.imageJob,
  },
  {
    name: "Gradient banner",
    description: "A 1200x400 banner: a diagonal gradient, a circle and two lines of text",
    job: {
      type: "image",
      config: {
        width: 1200,
        height: 400,
        layers: [
          {
            type: "gradient",
            x: 0,
            y: 0,
            width: 1200,
            height: 400,
            gradient: { type: "linear", colors: ["#4f46e5", "#ec4899"], direction: "diagonal" },
          },
          { type: "circle", x: 980, y: 60, width: 280, height: 280, fill: "#ffffff", opacity: 0.2 },
          {
            type: "text",
            text: "Launch day",
            x: 80,
            y: 120,
            fontSize: 96,
            color: "#ffffff",
            googleFont: "Poppins:700",
          },
          { type: "text", text: "Rendered from JSON", x: 84, y: 250, fontSize: 40, color: "#fde68a" },
        ],
      },
    },
  },
  {
    name: "Two titles",
    description: "A 4 s video: two clips with a fade between them",
    job: EXAMPLES.videoJob,
  },
  {
    name: "Lower third",
    description: "A 3 s video: a gradient background with a title that slides in",
    job: {
      type: "video",
      config: {
        width: 640,
        height: 360,
        fps: 25,
        clips: [
          {
            duration: 3,
            layers: [
              { type: "linear-gradient", colors: ["#0f172a", "#1e3a8a"] },
              { type: "title", text: "Breaking news", position: "bottom" },
            ],
          },
        ],
      },
    },
  },
] as const;
