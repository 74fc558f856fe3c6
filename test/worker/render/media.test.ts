/**
 * The in-process duration parsers against the real ffprobe (the renderer's /probe runs it): for every
 * fixture and for variants cut or edited here, the parser's microseconds equal ffprobe's format.duration.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bufferSource } from "../../../src/media/byte-source.ts";
import { readDurationUs } from "../../../src/media/duration.ts";
import { formatDuration } from "../../../src/media/format-duration.ts";
import { rendererFor } from "../../../src/renderer/client.ts";
import { fixture } from "../helpers.ts";

const ffprobeUs = async (bytes: Uint8Array, name: string) => {
  const probe = await rendererFor(env).probe(bytes.slice().buffer, bytes.byteLength, name);
  return probe.duration === null ? null : Math.round(probe.duration * 1e6);
};

/** A PCM WAV file of `samples` frames. */
const wav = (rate: number, channels: number, bits: number, samples: number) => {
  const data = samples * channels * (bits / 8);
  const b = new Uint8Array(44 + data);
  const v = new DataView(b.buffer);
  const tag = (at: number, s: string) => [...s].forEach((c, i) => (b[at + i] = c.charCodeAt(0)));
  tag(0, "RIFF");
  v.setUint32(4, 36 + data, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, (rate * channels * bits) / 8, true);
  v.setUint16(32, (channels * bits) / 8, true);
  v.setUint16(34, bits, true);
  tag(36, "data");
  v.setUint32(40, data, true);
  return b;
};

/** Tiny samples made with ffmpeg 5.1 (the fixtures hold no Matroska): 0.777 s of Opus in WebM, 1.3 s of VP8 in MKV. */
const WEBM_OPUS =
  "GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQRChYECGFOAZwEAAAAAAAWWEU2bdLpNu4tTq4QVSalmU6yBoU27i1OrhBZUrmtTrIHYTbuMU6uEElTDZ1OsggFCTbuMU6uEHFO7a1OsggWA7AEAAAAAAABZAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAVSalmsirXsYMPQkBNgI1MYXZmNTkuMjcuMTAwV0GNTGF2ZjU5LjI3LjEwMESJiECIiAAAAAAAFlSua+WuAQAAAAAAAFzXgQFzxYiXnH/OmJkzA5yBACK1nIN1bmSIgQCGhkFfT1BVU1aqg2MuoFa7hATEtACDgQLhkZ+BAbWIQOdwAAAAAABiZIEQY6KTT3B1c0hlYWQBATgBgLsAAAAAABJUw2f+c3OgY8CAZ8iaRaOHRU5DT0RFUkSHjUxhdmY1OS4yNy4xMDBzc9hjwItjxYiXnH/OmJkzA2fIokWjh0VOQ09ERVJEh5VMYXZjNTkuMzcuMTAwIGxpYm9wdXNnyKJFo4hEVVJBVElPTkSHlDAwOjAwOjAwLjc4NTAwMDAwMAAAH0O2dUO154EAo5uBAACACILiNEVFWJq34IlDZEoIMOMjIBAJTs6jm4EAFYAIo0DoAzw0okKT6rqAzMA1nPQJTLS9GaOVgQApgAidVfDkXfvcUn9BC5hBZ9fZo5aBAD2ACJ1fsHcyqlc+DLRH9NLwzqqAo5OBAFGACJ1fsHcyqlxPkrAPP2yAo5aBAGWACJ1fsHcyql6p4XcndyUcunFAo5eBAHmACJ1frvwBJ4jHtMXRBvMV6OSLxqOcgQCNgAidApaty/qI9BiMlay7R6WlqmAX5e1FaKOWgQChgAidX7B3MqpcLwAqQ4L61a24QKOWgQC1gAidX7B3Mqpej9VSgNk8srk4cKOVgQDJgAidc6A96uabsRzYW9q7CG2Ao5aBAN2ACJ1fsHcyqlvwgLujp7NvpryAo5eBAPGACJ0ClwbZ29Tdr4KQfj2xBVcHgaOVgQEFgAickCvjTlp6JpmyptQiFCyao5aBARmACJyQK+NOWnrkjo0rXshcD6VAo5WBAS2ACJyXeOCHVnzKAyXDc4FfQqCjk4EBQYAInJAr405aeBF+vS2KK4CjlYEBVYAInIyaBAEZDbs6F3UcBlIz0KOVgQFpgAickCvjTlp4HJmRIj4CO3Qso5SBAX2ACJyQK+NOWnrkjpRJKkvN8qOTgQGRgAicl3jgh1Z8ygMmlPxhWqOTgQGlgAickCvjTlp4EX/KD+7/16OTgQG5gAicjJoEARkNuzf8s3f0gKOUgQHNgAidagSx5bMh3S0aDk0HkRmjl4EB4YAInV+u/AIzFRwr/zIUByRAa0dgo5OBAfWACJ1qBLHls0zO5ZrNbBzAo56BAgmACJ2i7D3wxv/hms26gochiDMZ2A2rgrOnqgijoYECHYAInzEJNzPiDO5QnfmsNc3QZ6tXRID+Z4TSMtqlbqORgQIxgAiesmSx5bMg7XU0i4CjlIECRYAInqgO/AIzGDbFOffDFBkeo5KBAlmACDgi9Z4xMPVHawpmo/yjloECbYAIOB+2op5rmLbX3Xn6QVi1m8SjkYECgYAIOCL1njE4p40QsqiAo5SBApWACDgi9Z4xMQnBeuxOhqdxMKOUgQKpgAg4IvWeLzHzSGzSNrJI6tijlIECvYAIOCL1njExBpe/gA+5zo4go5WBAtGACDgftqKeS19cqoMhR11xxxijkYEC5YAIOCL1njEwRrvDk3RAo5SBAvmACJ2KlBTB3xI/ZOjPNa/gwqCcoZOBAw0ACITFwAWN0wEZFcJyswBgdaKEAPvFIBxTu2uRu4+zgQC3iveBAfGCAcXwgQM=";
const MKV_VP8 =
  "GkXfo6NChoEBQveBAULygQRC84EIQoKIbWF0cm9za2FCh4EEQoWBAhhTgGcBAAAAAAAMPBFNm3TAv4TT+XuiTbuLU6uEFUmpZlOsgaFNu4tTq4QWVK5rU6yB8U27jFOrhBJUw2dTrIIBRE27jFOrhBxTu2tTrIIMIOwBAAAAAAAAUwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFUmpZsu/hJdppMwq17GDD0JATYCNTGF2ZjU5LjI3LjEwMFdBjUxhdmY1OS4yNy4xMDBzpJB9l5grsXevLYOY7B0cnzTeRImIQJRQAAAAAAAWVK5rzr+E3piJM64BAAAAAAAAP9eBAXPFiACPJD7MB40OnIEAIrWcg3VuZIiBAIaFVl9WUDiDgQEj44OEBfXhAOCQsIEguoEgmoECVbCEVbmBARJUw2dAg7+EKo+1mnNzoGPAgGfImkWjh0VOQ09ERVJEh41MYXZmNTkuMjcuMTAwc3PXY8CLY8WIAI8kPswHjQ5nyKFFo4dFTkNPREVSRIeUTGF2YzU5LjM3LjEwMCBsaWJ2cHhnyKJFo4hEVVJBVElPTkSHlDAwOjAwOjAxLjMwMDAwMDAwMAAAH0O2dUpNv4QYhXfS54EAo0L7gQAAgDAVAJ0BKiAAIAAABwiFhYiFhIgCAgJ1uiTp/gP4OfrBzdO0/YH9L8oJ4W/gP4MeyvmAf4l+APAB/gP8Y/tn+A9//pAf0i9AHrAf0B9ID9q/gB/VD+6e4f/Fv49d2Hx78M+c49O/1my17zH8evyg0gP4efkBmAf55+E/4zZRzwUHnc/mH5Pf2D0Gv7l7gn8g/i39i/JT97foB6iv9Gva1E2cG+hvmQ1G2xmmdx50+DnAlYkA/v//FvklTmE1p5WoGrmuBpTusgVwrUo2Zbwd//5zD9aedgQ2JZQwovar8I6J5s4G7n+XJ/Bs/h1PPZOG4vwGPUF+GUHzOSIkiNiYuObq7re/l3XEw0/SJKfJdVXZ1tqpG+WzHo63bzw/grUvy8/sj/+hRXqhuf2aC5QYCgl+MepWAYxjS0pOA3/mDD3bEP1I9bdVUt0D/ebz//aYeaFJbEyTRkHJR0HeQd9pAqtNVhoVPountt+msn6GmemApPHkmVCgGYk33FlFG2afUd5B/hMrb/K7+PLPh4PGBqOhW2d0R1Dr8GVGQmcxDcad/jIZkd8MbiQYbi5s4JdyyTBLt2zU9Z2LxkTH9pBTL70U/PkuZVKffvMAhFT2hIgVwksSHfPgHpycGOuYOgP7//RZ5krh3rPorTm/j5qs+96T//tkyDwdq/oy5ru/GdxKd1qB2z8iQzXiuUOBVVa/Xme3//H2hgWZfv/ZueInl1I5BIfA4QuKk6UX6osNfiVFEzA7p4xQoXf/yLLfbM+6Kpy50OMMGkIeqjf+zL7rpO04q57UPxvFcsLM7v/5MO9s63p4KtB1L7SqwBw/1Gn5jAcOO8tP5Ra6Exh7t+5X/EjQ4PoLcXJNUE7VjkgDMJot/+edHpuReKMClpk3//1Jhn/iUikLdkSDfwCt0WiafB8SGnTgZNMQDDi6GrfUUj9UPmWb/XaC9eyd8d/xRv8jdc0PhNCCyKgVeue+gdrERHpSPcEvrxL2h4mHm5DZhbbewcwSjEl3wKNAp4EAZAAxAwACEBAAGAxBxKu/v4COQL9t5M3k5sBU8jwAxfFTHgnPXYmySCheUqD+ze5gH1WO4VVrIRTCFLhfKiioa+75WttErSyLN9g4v/5ufhGRCFCX+laQwJHh8PpLzEYWEzhNqCb4e3V/68nAQ7wh6pK7MIhdrNidyeYAPAHV0Cq3iaGCozPz1DHypA4qYaEXDrVwl6g+HZQjJU1bEQ0j0q2hN0AAo0CRgQDIAHECAAAQEAAYB2mnzNBqyurlQFaABADF1GI0UDIF8AbffOr/KtzRZDbvagFYvEp13m54iFdXhRny5aqrXvANBcg1/pwfjQQooGn1/0Q1fzY/nSdGQuY7JWcDCcSy/88jy8lE0oe8ldRLZO+B4CLl5BPwYEhinnxPiGuiYT42aNDAfV8oQijJi/1hCh0AAKNAoIEBLAAxAgAAEBAAGABEZKLAudGAbmEnAMXUHT3EPrMOARYDClQFV/R27nFYrEQb4Vq9tQpaz3WxfKv5K7obCw/P5O4vEAmjBCnJ+m55AEgXf3gh4uEM/kyXSBymj5tFrGKrfqWe7f59+XIO1mxO92TPLMxkC9LnxZbUbqbaKT81S4JsLStXnwf9ACH5QGsBQbR3RrZTlz/cF08QJjJ2AACjQJeBAZAAUQIAABAQABgFMMUBDRQO3EgKf/CAxdQdPcSCtdz6es5saTxgxmFuQiq1mL+kgBbFyqh5QNYpgz1JK/EBFneNHdG19wnlTGqE7u33+3vbSE20YEQP+H69Oh6NK0BfoS7WdpFaANvQFASTqGGODayb3GZR/VoUMCoXPgkRkYVIhUfyxl6rLYmUn/wEwdu1JqAVFMAAo0ClgQH0ADECAAAQEAAYAmP8RuBQ68AxgyCAxdQdPD2/rUGARpXiGumMs+BkaXxEr1Ylb00uYwLlt+VLll8AXRdOiN/iUnj9Gexhk+5ymnJ6DJw8Q0fSikwHXg5s0EnfwZvT5d0AvLOHSRhc5k+lHYloMWAfi8EqkXXBNzwC+t9TAPOYAQYXPenj6qZCpEPzOeZRkVK7gYzk/0Hk3gjR7i6YSfBtkTgAo0COgQJYAHECAAAQEAAYBkfxm/0aAT+wAMROAgDF1B05YYHy7ZHKh5dAvoOIwyyWUOdfl8cETNw0gHC2Ve2qJcG1ucqX4B46OF18yBq/TD+GUbiXvQByV0XtYlH2OjFcFAS5dvJ81kV84fz0uLYSzTYEVZk7peNIowKh3eIVvMbp5lp/MtoFPDNmnr7b2CPAAKNAmIECvADxAQAAEBAUYACpAL/QAH+OvwDF1B0hAK+xvhiO1iBh62LdQO2xBeAdzoB2K3poLSf+6qLteOPU9Z7/wUwHognNwlBkaPK+rVBupiAJ6DUZfDeHbOkOkGQ27Er+0Xg+7gFl4RoQIGAjQTvgPolQVFpaLG3FeupplCZqDhWJLzQedp5pXf85rXBYG6Gp9zoAK+NJSYAAo0CUgQMgAPEBAAAQEAAYACpAL/QAH+OvwMXUHP5ey/eYujrjarZV+rAnnSZLFw43DruVskvZ48P4PzCyAVlcF8aa9uiWWlAX2fDg0G41fpCV+AJ8WB13xANN8NHhaIGW4K6rJIGDW1Vtj618xhcEMVUDQkPQ/hDddHwf+7ZO7vRpXf9JyCUKYB5zAqLqPPb4d+8A+b9AAKNAlYEDhADxAQAAEBAAGAAqQC/0AB/royDF1BxH3D3NsQ+qxK3GnHAUCJ6sDUBuYLVaxGONujReJe7RsDvqG7PRDR5X0nwimAYwwARQ0rv+kJ3COtAGzf4g5ZoFz/re8040S9Ux8qp6ePl4msaG0ydDBOq1KW66kYzC3IKEgFfGbonDCmv0JZBmJ3H/BF3HYuRkKGHBvAAAo0CcgQPoAHECAAAQEAAYA6f/b2w10D1woCqLCEDF1BzU67GwhFczAEjdMHmxkHYqsq6yPCBqsEuqgpGZt0WI0JH8oUJ0P+N7F8vl3Eaf5F+z5iNTyE5sxHERYws8JAAy9r/y0xZl8hvb6Hf5aoi4mvmKsMYRC2ixUPmTT+B/AEggzAGAEGICafi/8Ds1DLT+h6IKrSEeiW8+yRdYQUgAo0CVgQRMAPEBAAAQEAAYACpAL/QAH+OvwMXUHTR5kCq/Z3wFV/R27nGi59NILSW0rlZW9vIY4ZdrxyN2FyTAPOYAUGvu8AFI0/B1eZrCZU/cf/td0WE0rIe647Py3KBuf3SE8+R2/luTNJsZ6NNBDC20nLl745UXUjkxrRBDvKjFa53bzRTX8oPQDIwHHOBB7jJF12dE8ACjQI6BBLAA8QEAABAQABgAKkAv9AAf46/AxdQdN7AxRYKrTbgTmEdKQ/H7JuP+lH+i2RgVBYYZdsTyN6hq6vmB2JwEe0eV+O3QJAnNl0tOMxR4uqouagOGw/UBI3TSaWjB1SmskuG5IlN4pFlOcIubRMEUWy6kYzCbxXJ5H3FGhaMV72QVRMg5DbN5NvC9PAAAHFO7a5e/hCidt7y7j7OBALeK94EB8YIBzfCBCQ==";
const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

describe("duration parsers match ffprobe to the microsecond", () => {
  for (const [name, expected] of [
    ["kohlipe3.mp4", 34_910_000],
    ["sample1.m4a", 2_024_000],
    ["winxp.mp3", 4_879_625],
  ] as const) {
    it(`reads ${name} in-process exactly as ffprobe does`, async () => {
      const bytes = fixture(name);
      const us = await readDurationUs(bufferSource(bytes));
      expect(us).toBe(expected);
      expect(us).toBe(await ffprobeUs(bytes, name));
    });
  }

  it("reads WebM and Matroska Segment Info durations as ffprobe does", async () => {
    for (const [name, bytes, expected] of [
      ["opus.webm", b64(WEBM_OPUS), 785_000],
      ["vp8.mkv", b64(MKV_VP8), 1_300_000],
    ] as const) {
      const us = await readDurationUs(bufferSource(bytes));
      expect(us).toBe(expected);
      expect(us).toBe(await ffprobeUs(bytes, name));
    }
  });

  it("estimates a header-less CBR mp3 from size and bit rate, like ffprobe, at any cut", async () => {
    const whole = fixture("winxp.mp3");
    for (const cut of [0.31, 0.5, 0.77]) {
      const bytes = whole.slice(0, Math.floor(whole.byteLength * cut));
      expect(await readDurationUs(bufferSource(bytes))).toBe(await ffprobeUs(bytes, "cut.mp3"));
    }
  });

  it("follows the movie header when it says the movie is shorter (edited mvhd duration)", async () => {
    const bytes = fixture("sample1.m4a").slice();
    const at = [...bytes.keys()].find((i) => String.fromCharCode(...bytes.subarray(i, i + 4)) === "mvhd")!;
    const v = new DataView(bytes.buffer);
    const timescale = v.getUint32(at + 4 + 12);
    const ticks = Math.round(timescale * 1.2345);
    v.setUint32(at + 4 + 16, ticks);
    const us = await readDurationUs(bufferSource(bytes));
    expect(us).toBe(await ffprobeUs(bytes, "edited.m4a"));
    expect(us).toBe(Math.round((ticks * 1e6) / timescale));
    expect(us).toBeLessThan(2_000_000);
  });

  it("reads PCM WAV sample counts", async () => {
    for (const [rate, ch, bits, n] of [
      [44100, 1, 16, 54321],
      [48000, 2, 24, 48000 * 3 + 7],
      [8000, 1, 8, 12345],
    ] as const) {
      const bytes = wav(rate, ch, bits, n);
      expect(await readDurationUs(bufferSource(bytes))).toBe(await ffprobeUs(bytes, "tone.wav"));
    }
  });

  it("leaves unknown containers and damaged headers to ffprobe (null)", async () => {
    expect(await readDurationUs(bufferSource(fixture("emoji.png")))).toBeNull();
    expect(await readDurationUs(bufferSource(fixture("kohlipe3.mp4").slice(0, 5000)))).toBeNull();
    expect(await readDurationUs(bufferSource(new TextEncoder().encode("OggS but not really")))).toBeNull();
  });
});

describe("formatDuration", () => {
  it("uses MM:SS.mmm under an hour and HH:MM:SS.mmm from an hour", () => {
    expect(formatDuration(4880)).toBe("00:04.880");
    expect(formatDuration(34_910)).toBe("00:34.910");
    expect(formatDuration(3_599_999)).toBe("59:59.999");
    expect(formatDuration(3_600_000)).toBe("01:00:00.000");
    expect(formatDuration(90_061_001)).toBe("25:01:01.001");
    expect(formatDuration(4880, true)).toBe("00:00:04.880");
  });
});
