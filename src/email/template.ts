import template from 'lodash/template.js';
import escapeRegExp from 'lodash/escapeRegExp.js';
import isObjectLike from 'lodash/isObject.js';

/** The dotted path of every leaf of `data` (`URL`, `USER.email`...), as Strapi's `objects.keysDeep` lists them. */
function leafPaths(data: unknown, path: string[] = []): string[] {
  if (!isObjectLike(data)) return [path.join('.')];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]) => leafPaths(value, [...path, key]));
}

/**
 * `layout` with each `<%= NAME %>` naming a leaf of `data` replaced by its value, as Strapi 5.54's email templates
 * are filled (users-permissions' `template`, the email service's `sendTemplatedEmail`): lodash's template with an
 * interpolation limited to those names, no evaluation and no escaping. Any other `<% %>` text stays as written, so
 * a template edited in Strapi's admin cannot run code.
 */
export function fillTemplate(layout: string, data: Record<string, unknown>): string {
  const names = leafPaths(data).filter((name) => name !== '');
  if (!names.length) return layout;
  const interpolate = new RegExp(`<%=\\s*(${names.map(escapeRegExp).join('|')})\\s*%>`, 'g');
  // `($^)` matches nothing (lodash's own "no match"): no `<% code %>` and no `<%- escaped %>` blocks.
  const none = /($^)/;
  return template(layout, { interpolate, evaluate: none, escape: none })(data);
}
