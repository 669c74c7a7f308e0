import type { Provider } from '../api/types.ts';

/** The providers a suite can use, asked for an id from the last registered to the first, catch-alls last. */
export class ProviderRegistry {
  private readonly providers: Provider[] = [];

  constructor(providers: readonly Provider[] = []) {
    for (const provider of providers) this.register(provider);
  }

  /** Adds a provider; one registered later under the same name replaces the earlier one. */
  register(provider: Provider): void {
    const index = this.providers.findIndex((p) => p.name === provider.name);
    if (index >= 0) this.providers.splice(index, 1);
    this.providers.push(provider);
  }

  get(name: string): Provider | undefined {
    return this.providers.find((p) => p.name === name);
  }

  names(): string[] {
    return this.providers.map((p) => p.name);
  }

  all(): readonly Provider[] {
    return this.providers;
  }

  /** The provider for an id outside any section: non-direct providers by prefix, newest first, catch-alls last. */
  forId(id: string): Provider | undefined {
    const candidates = this.providers.filter((p) => !p.direct).reverse();
    return (
      candidates.find((p) => p.prefix !== '' && id.startsWith(p.prefix)) ??
      candidates.find((p) => p.prefix === '')
    );
  }

  /** Each request type with the providers that serve it, for `--help`. */
  requestTypes(): { type: string; description: string; providers: string[] }[] {
    const byType = new Map<string, { type: string; description: string; providers: string[] }>();
    for (const p of this.providers) {
      const row = byType.get(p.requestType) ?? {
        type: p.requestType,
        description: p.requestTypeDescription,
        providers: [],
      };
      row.providers.push(p.name);
      byType.set(p.requestType, row);
    }
    return [...byType.values()];
  }
}
