/**
 * Request examples of the OpenAPI document. Each is sent to the API by test/worker/docs.test.ts, so an example
 * that stops being valid fails the suite instead of misleading a reader.
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
} as const;
