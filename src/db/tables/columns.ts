/** Column helpers shared by the table files. Dates are epoch milliseconds. */
import { integer } from "drizzle-orm/sqlite-core";

export const createdAt = () => integer("created_at").notNull();
export const updatedAt = () => integer("updated_at").notNull();
