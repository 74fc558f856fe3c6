/** The valibot shapes of the fields every provider object shares: ids, references to other objects, metadata, times. */
import * as v from "valibot";

export const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
/** An expandable reference: the id, or the object carrying it. */
export const Ref = v.nullish(
  v.union([
    Id,
    v.pipe(
      v.looseObject({ id: Id }),
      v.transform((o) => o.id),
    ),
  ]),
  null,
);
export const Metadata = v.nullish(v.record(v.string(), v.string()), {});
export const Seconds = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A provider's time (epoch seconds) as this service keeps it (epoch ms). */
export const ms = (seconds: number) => seconds * 1000;
