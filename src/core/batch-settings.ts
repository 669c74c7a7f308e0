import { z } from 'zod';

/** How a batch run waits on its batches: the first wait in seconds, doubling up to the last (30 s to 10 min). */
export const BatchPollingSchema = z.object({
  poll: z.tuple([z.number().positive(), z.number().positive()]),
});
/** How a batch run waits on its batches. */
export type BatchPolling = z.infer<typeof BatchPollingSchema>;

/** What a run records of its batches: how it waits, and each provider's share off the price. */
export const BatchSettingsSchema = BatchPollingSchema.extend({
  discounts: z.record(z.string(), z.number()),
});
/** What a run records of its batches: how it waits, and each provider's share off the price. */
export type BatchSettings = z.infer<typeof BatchSettingsSchema>;
