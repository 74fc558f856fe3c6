/**
 * A gl layer's shader as an uploaded file (`fragmentPath`): GLSL text uploads as category `shader`, and a
 * video job may name it; a missing or another account's file is FILE_NOT_FOUND at the field, a stored file
 * of another kind INVALID_FILE_TYPE, and a layer needs exactly one of fragmentShader / fragmentPath.
 */
import { describe, expect, it } from "vitest";
import { sniff } from "../../src/files/sniff.ts";
import { body, newAccount, upload } from "./helpers.ts";
import { createJobCall, seedMediaFile } from "./jobs-seed.ts";

const SHADER = `// a gradient
precision highp float;
uniform float time;
uniform vec2 resolution;
void main() { gl_FragColor = vec4(gl_FragCoord.xy / resolution, fract(time), 1.0); }
`;

const glJob = (layer: Record<string, unknown>) => ({
  type: "video",
  config: { width: 64, height: 64, fps: 10, clips: [{ duration: 1, layers: [{ type: "gl", ...layer }] }] },
});

const errorsOf = async (res: Response) => (await body(res)).details!.errors!;

describe("gl layer shader files", () => {
  it("sniffs GLSL by its first token after comments, and nothing else as GLSL", () => {
    const kind = (text: string) => sniff(new TextEncoder().encode(text))?.category ?? null;
    expect(kind(SHADER)).toBe("shader");
    expect(kind("#ifdef GL_ES\nprecision mediump float;\n#endif\nvoid main(){}")).toBe("shader");
    expect(kind("/* editly */\nuniform float time;")).toBe("shader");
    expect(kind("\uFEFF#version 100\nvoid main(){}")).toBe("shader");
    expect(kind("hello world")).toBeNull();
    expect(kind("<svg xmlns='http://www.w3.org/2000/svg'/>")).toBe("image");
    expect(kind("void main(){}\u0000")).toBeNull();
  });

  it("uploads GLSL text as a shader file and renders a job that names it", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const up = await upload(key, "waves.frag", new TextEncoder().encode(SHADER));
    expect(up.status).toBe(201);
    const file = (await body<{ storageUrl: string; metadata: { category: string }; mimeType: string }>(up))
      .data!;
    expect(file.metadata.category).toBe("shader");
    expect(file.mimeType).toBe("text/x-glsl");
    expect(file.storageUrl).toMatch(/^\/shader\/.+\.glsl$/);
    const res = await createJobCall(key, glJob({ fragmentPath: file.storageUrl }));
    expect(res.status).toBe(201);
  });

  it("refuses text that is not GLSL, and binary content named .glsl", async () => {
    const { key } = await newAccount();
    const prose = await upload(
      key,
      "notes.glsl",
      new TextEncoder().encode("Dear diary, today I wrote a shader."),
    );
    expect(prose.status).toBe(400);
    const binary = await upload(key, "x.glsl", new Uint8Array([0x70, 0x72, 0x65, 0x00, 0x01, 0x02, 0xff]));
    expect(binary.status).toBe(400);
  });

  it("FILE_NOT_FOUND for a missing file and for another account's shader", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const other = await newAccount();
    const theirs = await seedMediaFile(other.userId, { category: "shader", ext: "glsl" });
    for (const path of ["/shader/2026-01-01/nobody/missing.glsl", theirs.storageUrl]) {
      const res = await createJobCall(key, glJob({ fragmentPath: path }));
      expect(res.status).toBe(400);
      expect(await errorsOf(res)).toEqual([
        {
          field: "config.clips[0].layers[0].fragmentPath",
          message: `File not found: ${path}`,
          code: "FILE_NOT_FOUND",
        },
      ]);
    }
  });

  it("INVALID_FILE_TYPE when fragmentPath names a stored picture", async () => {
    const { key, userId } = await newAccount({ planId: "pro" });
    const png = await seedMediaFile(userId, { category: "image", ext: "png" });
    // A storage path's extension need not be .glsl: the stored file's kind decides.
    const res = await createJobCall(key, glJob({ fragmentPath: png.storageUrl }));
    expect(res.status).toBe(400);
    const [e] = await errorsOf(res);
    expect(e).toMatchObject({ field: "config.clips[0].layers[0].fragmentPath", code: "INVALID_FILE_TYPE" });
    expect(e!.message).toMatch(/GLSL shader/);
  });

  it("a gl layer needs exactly one of fragmentShader and fragmentPath", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const none = await createJobCall(key, glJob({}));
    expect(none.status).toBe(400);
    expect((await errorsOf(none)).map((e) => e.field)).toContain("config.clips[0].layers[0].fragmentShader");
    const both = await createJobCall(
      key,
      glJob({ fragmentShader: SHADER, fragmentPath: "https://example.com/a.glsl" }),
    );
    expect(both.status).toBe(400);
    expect((await errorsOf(both)).map((e) => e.field)).toContain("config.clips[0].layers[0].fragmentPath");
  });
});
