/**
 * A video job costs and is capped by what it will render: clips without a duration are sized by their video's real
 * length (the stored file's, probed at upload), never by a guess.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { body, call, fixture, json, newAccount, upload } from "../helpers.ts";

const uploadVideo = async (key: string) => {
  const res = await upload(key, "kohlipe3.mp4", fixture("kohlipe3.mp4"));
  expect(res.status).toBe(201);
  return (await body<{ storageUrl: string; id: string }>(res)).data!;
};

const videoConfig = (clips: unknown[]) => ({ type: "video", config: { width: 320, height: 180, clips } });

describe("video length from stored files", () => {
  it("estimates a clip without duration by its video's length (34.91 s), on validate and create", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const { storageUrl } = await uploadVideo(key);
    const payload = videoConfig([{ layers: [{ type: "video", path: storageUrl }] }]);
    const validated = await body(await call("/api/v1/jobs/validate", json("POST", payload, key)));
    expect(validated.data).toMatchObject({ isValid: true, estimatedTokens: 10 + 2 * 35 });
    const created = await call("/api/v1/jobs", json("POST", payload, key));
    expect(created.status).toBe(201);
    expect((await body(created)).data).toMatchObject({ estimatedTokens: 80 });
    // With a cut, the cut counts; a duration on the clip counts first.
    const cut = videoConfig([{ layers: [{ type: "video", path: storageUrl, cutFrom: 30 }] }]);
    expect((await body(await call("/api/v1/jobs/validate", json("POST", cut, key)))).data).toMatchObject({
      estimatedTokens: 10 + 2 * 5,
    });
    const sized = videoConfig([{ duration: 2, layers: [{ type: "video", path: storageUrl }] }]);
    expect((await body(await call("/api/v1/jobs/validate", json("POST", sized, key)))).data).toMatchObject({
      estimatedTokens: 14,
    });
  });

  it("caps the output at 300 s with the files' real lengths on the free plan", async () => {
    const { key, userId } = await newAccount({ tokens: 5000 });
    const { storageUrl } = await uploadVideo(key);
    // Nine clips of 34.91 s: 314 s. The grammar alone would have counted 9 x 4 s.
    const payload = videoConfig(
      Array.from({ length: 9 }, () => ({ layers: [{ type: "video", path: storageUrl }] })),
    );
    const res = await call("/api/v1/jobs", json("POST", payload, key));
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({
      field: "config.clips",
      message: expect.stringMatching(
        /would last 314\.\d+ s with its files' real lengths; at most 300 s are allowed on the Free plan \(3600 s on paid plans\)/,
      ),
    });
    const validated = await body(await call("/api/v1/jobs/validate", json("POST", payload, key)));
    expect(validated.data).toMatchObject({ isValid: false, estimatedTokens: 0 });
    const open = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(open!.n).toBe(0);
  });

  it("allows paid plans an hour: 314 s of files, and 3600 s of 1080p25 that renders as 8 chunks or more", async () => {
    const { key } = await newAccount({ tokens: 10_000, planId: "pro" });
    const { storageUrl } = await uploadVideo(key);
    const nine = videoConfig(
      Array.from({ length: 9 }, () => ({ layers: [{ type: "video", path: storageUrl }] })),
    );
    expect((await body(await call("/api/v1/jobs/validate", json("POST", nine, key)))).data).toMatchObject({
      isValid: true,
      estimatedTokens: 10 + 2 * 315,
    });
    const hour = (format: string, width = 1920, height = 1080, fps = 25) => ({
      type: "video",
      config: {
        width,
        height,
        fps,
        outPath: `long.${format}`,
        clips: [{ duration: 3600, layers: [{ type: "fill-color", color: "#123" }] }],
      },
    });
    const validated = await body(await call("/api/v1/jobs/validate", json("POST", hour("mp4"), key)));
    expect(validated.data).toMatchObject({ isValid: true, estimatedTokens: 10 + 2 * 3600 });
    // A second more is past the grammar's hour, on every plan.
    const over = hour("mp4");
    over.config.clips[0]!.duration = 3601;
    expect((await body(await call("/api/v1/jobs/validate", json("POST", over, key)))).data).toMatchObject({
      isValid: false,
    });
    // An hour of 1080p needs more than the longest render: a webm renders in one piece, and an hour of 4K at
    // 60 fps would not fit even 64 chunks. Both are refused at creation, nothing reserved.
    for (const [payload, why] of [
      [hour("webm"), /a webm renders in one piece/],
      [hour("mp4", 3840, 2160, 60), /not even split into 64 parts/],
    ] as const) {
      const res = await call("/api/v1/jobs", json("POST", payload, key));
      expect(res.status).toBe(400);
      expect((await body(res)).details!.errors![0]).toMatchObject({
        field: "config",
        message: expect.stringMatching(why),
      });
    }
  });

  it("refuses a clip sized by a video whose length is unknown, at the field", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const { storageUrl, id } = await uploadVideo(key);
    await env.DB.prepare("UPDATE media_files SET duration = NULL WHERE id = ?").bind(id).run();
    const res = await call(
      "/api/v1/jobs",
      json("POST", videoConfig([{ layers: [{ type: "video", path: storageUrl }] }]), key),
    );
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({
      field: "config.clips[0].layers[0].path",
      code: "UNKNOWN_DURATION",
    });
    // Given a cut, its length is known again.
    const cut = videoConfig([{ layers: [{ type: "video", path: storageUrl, cutFrom: 1, cutTo: 3 }] }]);
    expect((await call("/api/v1/jobs", json("POST", cut, key))).status).toBe(201);
  });

  it("counts a cut given in the layer defaults, as the renderer applies it", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const { storageUrl } = await uploadVideo(key);
    const payload = {
      type: "video",
      config: {
        defaults: { layerType: { video: { cutTo: 3 } } },
        clips: [{ layers: [{ type: "video", path: storageUrl }] }],
      },
    };
    expect((await body(await call("/api/v1/jobs/validate", json("POST", payload, key)))).data).toMatchObject({
      estimatedTokens: 16,
    });
  });
});
