import type { Component, ContentType } from '../model/types.js';

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** `api::restaurant.restaurant` → `Restaurant`; plugin types are prefixed (`UploadFile`, `UsersPermissionsUser`). */
export function typeName(ct: ContentType): string {
  if (ct.plugin) return pascal(`${ct.plugin} ${ct.info.singularName}`);
  return pascal(ct.info.singularName);
}

/** `location.address` → `ComponentLocationAddress`. */
export function componentTypeName(component: Component): string {
  return `Component${pascal(component.uid)}`;
}

/** Query field names: `article` / `articles`; plugin types `uploadFile` / `uploadFiles`. */
export function queryNames(ct: ContentType): { single: string; plural: string } {
  const base = typeName(ct);
  const lower = base[0].toLowerCase() + base.slice(1);
  if (!ct.plugin) return { single: camel(ct.info.singularName), plural: camel(ct.info.pluralName) };
  const pluralBase = pascal(`${ct.plugin} ${ct.info.pluralName}`);
  return { single: lower, plural: pluralBase[0].toLowerCase() + pluralBase.slice(1) };
}

function camel(s: string): string {
  const p = pascal(s);
  return p[0].toLowerCase() + p.slice(1);
}

/** `ENUM_RESTAURANT_CATEGORY`. */
export function enumName(owner: ContentType | Component, attribute: string): string {
  const base = owner.modelType === 'component' ? `COMPONENT${owner.uid.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}` : owner.info.singularName.toUpperCase();
  return `ENUM_${base.replace(/-/g, '')}_${attribute.toUpperCase()}`;
}
