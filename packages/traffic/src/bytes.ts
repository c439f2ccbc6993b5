import { z } from "zod";

/** A message size in bytes: a whole number ≥ 1, as host adapters require. */
export const bytesSchema = z.int().min(1);
