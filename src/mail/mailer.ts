/**
 * Outgoing mail behind one small interface: Cloudflare Email Service (the `EMAIL` send_email binding) in
 * production; locally (ENVIRONMENT development) the `outbox` table plus a log line, read at GET /dev/outbox, so
 * `npm start` alone is enough to sign up.
 */
import type { Ctx } from "../context.ts";
import { outbox } from "../db/schema.ts";
import { isDevelopment } from "../env.ts";
import { UpstreamFailure } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Writes mail to the outbox table and the log (development only). */
const outboxMailer = (ctx: Ctx): Mailer => ({
  async send(mail) {
    await ctx.db
      .insert(outbox)
      .values({ id: newId("mail"), ...mail, createdAt: ctx.now() })
      .run();
    console.log(
      JSON.stringify({
        level: "info",
        msg: "mail (outbox)",
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      }),
    );
  },
});

/** Sends through the send_email binding. */
const emailServiceMailer = (binding: SendEmail, from: string): Mailer => ({
  async send(mail) {
    try {
      await binding.send({ from, to: mail.to, subject: mail.subject, text: mail.text });
    } catch (e) {
      throw new UpstreamFailure(`Sending mail failed: ${(e as Error).message}`);
    }
  },
});

export const mailerFor = (ctx: Ctx): Mailer => {
  if (isDevelopment(ctx.env)) return outboxMailer(ctx);
  if (!ctx.env.EMAIL || !ctx.env.MAIL_FROM)
    throw new UpstreamFailure("Mail is not configured (the EMAIL binding and MAIL_FROM)");
  return emailServiceMailer(ctx.env.EMAIL, ctx.env.MAIL_FROM);
};
