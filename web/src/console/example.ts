/**
 * The landing page's example: this config, rendered by the service itself, is assets/example.webp (rendered again
 * and compared by test/e2e/console-work.test.ts, so the picture cannot drift from what the config makes). The Jobs
 * page offers to render it too.
 */
import type { CreateJobBody } from "../shared/api-types.ts";

export const EXAMPLE_JOB = {
  type: "image",
  config: {
    width: 1200,
    height: 630,
    format: "webp",
    quality: 80,
    layers: [
      {
        type: "gradient",
        x: 0,
        y: 0,
        width: 1200,
        height: 630,
        gradient: { type: "linear", colors: ["#13233a", "#1d4ed8"], direction: "diagonal" },
      },
      { type: "circle", x: 860, y: -120, width: 520, height: 520, fill: "#f1c40f", opacity: 0.9 },
      { type: "circle", x: 760, y: 330, width: 220, height: 220, fill: "#ffffff", opacity: 0.15 },
      {
        type: "text",
        text: "Summer sale",
        x: 80,
        y: 190,
        fontSize: 110,
        color: "#ffffff",
        googleFont: "Poppins:700",
      },
      {
        type: "text",
        text: "Every size, every channel, one JSON config",
        x: 84,
        y: 340,
        fontSize: 38,
        color: "#dbe7ff",
        googleFont: "Inter:400",
      },
      { type: "rectangle", x: 84, y: 430, width: 300, height: 84, fill: "#f1c40f", borderRadius: 42 },
      {
        type: "text",
        text: "Shop now",
        x: 234,
        y: 448,
        fontSize: 40,
        color: "#13233a",
        align: "center",
        googleFont: "Poppins:600",
      },
    ],
  },
} satisfies CreateJobBody;
