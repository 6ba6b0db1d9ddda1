import type { Model } from '../model/types.js';

/** The actions of the plugins' own routes (media library, users, roles), as Strapi names them. */
const PLUGIN_ACTIONS = [
  ...['find', 'findOne', 'findPage', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`),
  ...['find', 'findOne', 'create', 'update', 'destroy', 'me'].map((a) => `plugin::users-permissions.user.${a}`),
  ...['createRole', 'findOne', 'find', 'updateRole', 'deleteRole'].map((a) => `plugin::users-permissions.role.${a}`),
  'plugin::users-permissions.permissions.getPermissions',
];

/**
 * Every action a role may be given: the content API's `find`, `findOne`, `create`, `update`, `delete` of each
 * content-type (and `publish` where it has Draft & Publish: the publish, unpublish and discard-draft routes), and
 * the plugins' actions (media library, users, roles). Anything else allows nothing, so granting it is a mistake.
 */
export function permissionActions(model: Model): string[] {
  const actions: string[] = [];
  for (const contentType of model.contentTypes.values()) {
    if (contentType.plugin) continue;
    for (const action of ['find', 'findOne', 'create', 'update', 'delete']) actions.push(`${contentType.uid}.${action}`);
    if (contentType.draftAndPublish) actions.push(`${contentType.uid}.publish`);
  }
  return [...actions.sort(), ...PLUGIN_ACTIONS];
}
