import type { z } from 'zod';
import { configErrorFrom } from '../suite/config.ts';
import type { TrackerContext } from './types.ts';

/** Parses a tracker's own lineup section, or throws a `ConfigError` naming the file, `<tracker>.<key>` and the value. */
export function parseSection<T extends z.ZodType>(
  name: string,
  schema: T,
  context: Pick<TrackerContext, 'config' | 'configFile'>,
): z.infer<T> {
  const parsed = schema.safeParse(context.config);
  if (parsed.success) return parsed.data;
  throw configErrorFrom(context.configFile ?? 'the lineup', parsed.error, { [name]: context.config }, [name]);
}
