// @ts-check
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * An ESLint rule that holds the code to ARCHITECTURE.md's rooms: each file belongs to the room whose folder holds it
 * (the longest folder named in the table), and a room may import values only from the rooms and packages its entry
 * allows. Imports are resolved against the importing file, so `../suite/x.ts` from src/core and
 * `../../src/suite/x.ts` from a deeper folder are the same room; type-only imports are allowed from any room unless
 * its entry says `noTypes`. A file under src/ in no room is an error, so a new room is placed on purpose.
 *
 * Options: `{ root, rooms: { [folder]: Policy }, privateTypes?: { [room]: { to: string[], why: string } } }`:
 * a room in `privateTypes` lends even its types only to the rooms `to` names; a Policy is
 * `{ values?: string[], packages?: { allow?: string[], deny?: string[] }, why: string }`;
 * `values` lists the other rooms it may import values from ('*' for any); package names match exactly or as a
 * prefix ending in '/' or '*' ('node:*').
 */

/** @param {string} name @param {string[]} list */
const matches = (name, list) =>
  list.some((p) =>
    p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p || name.startsWith(`${p}/`),
  );

/** @param {string} path @param {string[]} folders */
function roomOf(path, folders) {
  let best;
  for (const folder of folders)
    if ((path === folder || path.startsWith(`${folder}/`)) && (!best || folder.length > best.length))
      best = folder;
  return best;
}

/** @param {any} node */
function typeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((/** @type {any} */ s) => s.importKind === 'type' || s.exportKind === 'type')
  );
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Holds each file to what its room may import (ARCHITECTURE.md).' },
    schema: [{ type: 'object', additionalProperties: true }],
  },
  create(context) {
    const { root, rooms, privateTypes = {} } = context.options[0];
    const folders = Object.keys(rooms);
    const file = relative(root, context.filename).split(sep).join('/');
    const own = roomOf(file, folders);
    if (!own) {
      if (file.startsWith('src/'))
        return {
          Program: (node) =>
            context.report({
              node,
              message: `${file} is in no room: add its folder to the rooms in eslint.config.js`,
            }),
        };
      return {};
    }
    const policy = rooms[own];
    /** @param {any} node @param {string} source @param {boolean} types */
    const check = (node, source, types) => {
      if (source.startsWith('.')) {
        const target = relative(root, resolve(dirname(context.filename), source))
          .split(sep)
          .join('/');
        const room = roomOf(target, folders);
        if (!room || room === own) return;
        const lent = privateTypes[room];
        if (lent && !lent.to.includes(own)) {
          context.report({ node, message: `${own} may not import from ${room} (${source}): ${lent.why}` });
          return;
        }
        if (types && !policy.noTypes) return;
        const allowed = policy.values ?? [];
        if (allowed.includes('*') || allowed.includes(room)) return;
        context.report({
          node,
          message: `${own} may not import ${types ? 'types' : 'values'} from ${room} (${source}): ${policy.why}`,
        });
        return;
      }
      if (types) return;
      const { allow, deny = [] } = policy.packages ?? {};
      if (matches(source, deny) || (allow && !matches(source, allow)))
        context.report({ node, message: `${own} may not import '${source}': ${policy.why}` });
    };
    /** @param {any} node */
    const declaration = (node) => node.source && check(node, String(node.source.value), typeOnly(node));
    return {
      ImportDeclaration: declaration,
      ExportNamedDeclaration: declaration,
      ExportAllDeclaration: declaration,
      ImportExpression: (node) => {
        const source = /** @type {any} */ (node.source);
        if (source.type === 'Literal' && typeof source.value === 'string') check(node, source.value, false);
      },
    };
  },
};

/** The plugin that carries the rule, as `rooms/imports`. */
export const roomsPlugin = { rules: { imports: rule } };
