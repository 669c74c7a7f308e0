import {
  isCollection,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  Pair,
  type Document,
  type YAMLMap,
  type Node,
} from 'yaml';
import { ConfigError } from '../errors.ts';

/** What `upgradeConfig` made of a lineup's text: the new text, whether it differs, and what it did, line by line. */
export interface UpgradeResult {
  text: string;
  changed: boolean;
  notes: string[];
}

type TopPair = Pair<Node, Node | null>;

const keyOf = (pair: TopPair): string => (isScalar(pair.key) ? String(pair.key.value) : '');

/** `key:` with nothing after it: a null scalar, which may still carry a comment. */
const isEmpty = (node: Node | null): boolean => node === null || (isScalar(node) && node.value === null);

const joinComments = (...parts: (string | null | undefined)[]): string | undefined =>
  parts.filter((p): p is string => Boolean(p)).join('\n') || undefined;

/**
 * The yaml package prints a comment written after `key:` above the key's first child instead; when the source had it
 * on the key's own line, give it back to the key, so the upgraded file reads like the old one.
 */
function keepKeyLineComments(node: unknown, text: string): void {
  if (!isCollection(node)) return;
  for (const item of node.items) {
    if (isMap(node) && item instanceof Pair) {
      const { key, value } = item as TopPair;
      const sameLine = isScalar(key) && key.range && /^[ \t]*:[ \t]+#/.test(text.slice(key.range[1]));
      if (sameLine && isCollection(value) && value.commentBefore && !key.comment) {
        const [first, ...rest] = value.commentBefore.split('\n');
        key.comment = first;
        value.commentBefore = joinComments(...rest);
      }
      keepKeyLineComments(value, text);
    } else {
      keepKeyLineComments(item, text);
    }
  }
}

/** An old vendor or direct entry was a bare list of models; now it is a section whose `models:` holds that list. */
function asSection(doc: Document, value: Node | null): Node | null {
  if (!isSeq(value)) return value;
  const section = doc.createNode({}) as YAMLMap;
  section.items.push(new Pair(doc.createNode('models'), value));
  return section;
}

function upgradeVendors(doc: Document, top: YAMLMap<Node, Node | null>, index: number, file?: string) {
  const old = top.items[index] as TopPair;
  let vendors = old.value;
  if (isEmpty(vendors)) {
    // An empty `vendors:` becomes `vendors: {}`, which loads; a comment it carried stays on its line.
    const comment = vendors?.comment;
    vendors = doc.createNode({}, { flow: true });
    vendors.comment = comment;
  } else if (isMap(vendors)) {
    for (const vendor of vendors.items as TopPair[]) vendor.value = asSection(doc, vendor.value);
  }
  const existing = (top.items as TopPair[]).find((p) => keyOf(p) === 'openrouter');
  if (!existing) {
    // The same key node, renamed, so its comments and the blank line above it stay where they were.
    (old.key as { value: unknown }).value = 'openrouter';
    const section = doc.createNode({}) as YAMLMap;
    section.items.push(new Pair(doc.createNode('vendors'), vendors));
    old.value = section;
    return 'moved the top-level vendors: under openrouter:';
  }
  if (!isEmpty(existing.value) && !isMap(existing.value)) {
    throw new ConfigError(file, 'openrouter', 'is not a section, so vendors: cannot move under it');
  }
  if (isEmpty(existing.value) && existing.value?.comment) existing.key.comment = existing.value.comment;
  const section: YAMLMap = isMap(existing.value) ? existing.value : doc.createNode({});
  if (section.has('vendors')) {
    throw new ConfigError(file, 'vendors', 'openrouter.vendors exists too; merge the two by hand');
  }
  const moved = new Pair(doc.createNode('vendors'), vendors);
  (moved.key as Node).commentBefore = joinComments(old.key.commentBefore, old.key.comment);
  section.items.push(moved);
  existing.value = section;
  top.items.splice(index, 1);
  return 'moved the top-level vendors: into the existing openrouter: section';
}

function upgradeDirect(doc: Document, top: YAMLMap<Node, Node | null>, index: number, file?: string) {
  const old = top.items[index] as TopPair;
  const direct = old.value;
  if (!isEmpty(direct) && !isMap(direct)) {
    throw new ConfigError(
      file,
      'direct',
      'expected a section of providers, such as `typesafe: [jev-latest]`',
    );
  }
  const providers = (isMap(direct) ? direct.items : []) as TopPair[];
  const taken = new Set((top.items as TopPair[]).map(keyOf));
  for (const p of providers) {
    if (taken.has(keyOf(p))) {
      throw new ConfigError(
        file,
        `direct.${keyOf(p)}`,
        `a top-level ${keyOf(p)}: exists too; merge the two by hand`,
      );
    }
    p.value = asSection(doc, p.value);
  }
  // The comments on `direct:` itself have no key left to sit on: they go above the first provider it held.
  const carried = joinComments(old.key.commentBefore, old.key.comment, direct?.commentBefore);
  const [first] = providers;
  if (first) {
    first.key.commentBefore = joinComments(carried, first.key.commentBefore);
    first.key.spaceBefore = old.key.spaceBefore;
    const last = providers.at(-1)!;
    if (direct?.comment && last.value) last.value.comment = joinComments(last.value.comment, direct.comment);
  } else if (carried || direct?.comment) {
    const next: TopPair | undefined = top.items[index + 1];
    if (next) next.key.commentBefore = joinComments(carried, direct?.comment, next.key.commentBefore);
    else doc.comment = joinComments(carried, direct?.comment, doc.comment) ?? null;
  }
  top.items.splice(index, 1, ...providers);
  return providers.map((p) => `moved direct: ${keyOf(p)}: to a top-level ${keyOf(p)}: section`);
}

/**
 * Rewrites a lineup in the old top-level `vendors:`/`direct:` form into today's (`openrouter: { vendors: … }`, and a
 * top-level section per direct provider) with the yaml Document API, so every comment and the key order survive;
 * text already in today's form comes back unchanged. `file` only names the file in errors.
 */
export function upgradeConfig(text: string, file?: string): UpgradeResult {
  const doc = parseDocument(text);
  const error = doc.errors[0];
  if (error) throw new ConfigError(file, undefined, `malformed YAML: ${error.message.split('\n')[0]}`);
  const top = doc.contents;
  const keys = isMap(top) ? (top.items as TopPair[]).map(keyOf) : [];
  if (!isMap(top) || (!keys.includes('vendors') && !keys.includes('direct'))) {
    return { text, changed: false, notes: ['already in the current form: nothing to change'] };
  }
  keepKeyLineComments(top, text);
  const map = top as YAMLMap<Node, Node | null>;
  const notes: string[] = [];
  // `direct:`'s index is looked up after `vendors:`, which may have left the top level.
  const vendors = (map.items as TopPair[]).findIndex((p) => keyOf(p) === 'vendors');
  if (vendors >= 0) notes.push(upgradeVendors(doc, map, vendors, file));
  const direct = (map.items as TopPair[]).findIndex((p) => keyOf(p) === 'direct');
  if (direct >= 0) notes.push(...upgradeDirect(doc, map, direct, file));
  // Flow collections keep the padding most of the file used: `[prompt]` stays `[prompt]`, `{ burst: 1 }` its spaces.
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const padded = count(/[[{] [^\s\]}]/g) > count(/[[{][^\s\]}]/g);
  return {
    text: doc.toString({ flowCollectionPadding: padded, lineWidth: 0 }),
    changed: true,
    notes,
  };
}
