// @ts-check
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * An ESLint rule that refuses an import closing a circle: a file that, through the files it imports (types too, for a
 * circle through types still ties the two files' changes together), comes back to itself. The file being linted is
 * read from its syntax tree; the files it reaches are read from disk, their relative imports found by a pattern (an
 * import of a package never closes a circle of ours). What two files of a circle share belongs in a third they both
 * read.
 */

/** Relative import specifiers: `import … from './x.ts'`, `export … from`, `import './x.ts'`, `import('./x.ts')`. */
const IMPORTS = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each file's relative imports as absolute paths, read once per process. */
const edges = new Map();

/** @param {string} file @returns {string[]} */
function importsOf(file) {
  let found = edges.get(file);
  if (found) return found;
  found = [];
  if (existsSync(file))
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORTS))
      found.push(resolve(dirname(file), /** @type {string} */ (match[1])));
  edges.set(file, found);
  return found;
}

/**
 * The path from `start` back to `target` through the files' imports, or undefined when there is none (breadth
 * first, so the circle named is a shortest one).
 * @param {string} start @param {string} target @returns {string[] | undefined}
 */
function pathBack(start, target) {
  /** @type {Map<string, string | undefined>} */
  const from = new Map([[start, undefined]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = /** @type {string} */ (queue[i]);
    for (const next of importsOf(file)) {
      if (next === target) {
        const path = [file];
        for (let at = from.get(file); at !== undefined; at = from.get(at)) path.unshift(at);
        return path;
      }
      if (!from.has(next) && !next.includes(`${sep}node_modules${sep}`)) {
        from.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses an import that closes a circle of imports.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
  },
  create(context) {
    const { root } = context.options[0];
    const name = (/** @type {string} */ file) => relative(root, file).split(sep).join('/');
    /** @param {any} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(context.filename), source);
      const back = pathBack(target, context.filename);
      if (back)
        context.report({
          node,
          message: `import circle: ${[context.filename, ...back, context.filename].map(name).join(' → ')}; move what both sides need where both can read it`,
        });
    };
    /** @param {any} node */
    const declaration = (node) => node.source && check(node, node.source.value);
    return {
      ImportDeclaration: declaration,
      ExportNamedDeclaration: declaration,
      ExportAllDeclaration: declaration,
      ImportExpression: (node) => {
        const source = /** @type {any} */ (node.source);
        if (source.type === 'Literal') check(node, source.value);
      },
    };
  },
};

/** The plugin that carries the rule, as `circles/none`. */
export const circlesPlugin = { rules: { none: rule } };
