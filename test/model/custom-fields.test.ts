import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { buildModel, CustomFields, getComponent, getContentType } from '../../src/model/index.js';
import { expectModelError, FILE, thing } from './helpers.js';

const color = { type: 'customField', customField: 'plugin::color-picker.color' };

describe('custom fields: served as the type they are stored as', () => {
  it("Strapi's own custom fields are known by name: the color picker is a string", () => {
    const model = buildModel({
      contentTypes: [{ schema: thing({ accent: { ...color, required: true, options: { format: 'hex' } } }) }],
      components: [{ uid: 'shared.theme', schema: { attributes: { background: color } } }],
    });
    const accent = getContentType(model, 'api::thing.thing').attributes.get('accent')!;
    expect(accent).toMatchObject({ kind: 'scalar', type: 'string', column: 'accent', required: true });
    // The attribute keeps what its schema says besides the type, as Strapi's converted attribute does.
    expect(accent.raw).toMatchObject({ type: 'string', customField: 'plugin::color-picker.color', options: { format: 'hex' } });
    expect(getComponent(model, 'shared.theme').attributes.get('background')).toMatchObject({ kind: 'scalar', type: 'string' });
  });

  it('others are declared by the app (strapi.customFields.register in register()); their options apply', () => {
    const registry = new CustomFields();
    registry.register([
      { name: 'CKEditor', plugin: 'ckeditor5', type: 'richtext' },
      { name: 'rating', type: 'integer', inputSize: { default: 4, isResizable: true } },
    ]);
    const model = buildModel(
      {
        contentTypes: [
          {
            schema: thing({
              body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', maxLength: 50 },
              stars: { type: 'customField', customField: 'global::rating', min: 1, max: 5 },
            }),
          },
        ],
      },
      { customFields: registry.lookup },
    );
    const attributes = getContentType(model, 'api::thing.thing').attributes;
    expect(attributes.get('body')).toMatchObject({ type: 'richtext', maxLength: 50 });
    expect(attributes.get('stars')).toMatchObject({ type: 'integer', min: 1, max: 5 });
  });

  it('an undeclared custom field is an error naming the attribute and the register() call that declares it', () => {
    const input = (customField: unknown) => ({ contentTypes: [{ schema: thing({ body: { type: 'customField', customField } }), file: FILE }] });
    const error = expectModelError(input('plugin::ckeditor5.CKEditor'), FILE, 'body', /custom field "plugin::ckeditor5\.CKEditor" is not known to Cairn/);
    expect(error.message).toBe(
      `${FILE} (attribute "body"): custom field "plugin::ckeditor5.CKEditor" is not known to Cairn: declare the type it is stored as in register() of src/index.js, ` +
        "e.g. strapi.customFields.register({ name: 'CKEditor', plugin: 'ckeditor5', type: 'string' })",
    );
    expect(expectModelError(input('global::rating'), FILE, 'body', /not known/).reason).toContain("strapi.customFields.register({ name: 'rating', type: 'string' })");
    for (const missing of [undefined, '', 42]) {
      expectModelError(input(missing), FILE, 'body', /^a customField attribute needs "customField": the uid of a custom field, like "plugin::color-picker\.color"$/);
    }
    // A registry without the field is no different from none.
    expect(() => buildModel(input('plugin::ckeditor5.CKEditor'), { customFields: new CustomFields().lookup })).toThrow(/is not known to Cairn/);
  });

  it('the underlying type keeps its own rules (an enumeration needs its values)', () => {
    const registry = new CustomFields();
    registry.register({ name: 'mood', type: 'enumeration' });
    const input = (extra: object) => ({ contentTypes: [{ schema: thing({ mood: { type: 'customField', customField: 'global::mood', ...extra } }), file: FILE }] });
    expect(() => buildModel(input({}), { customFields: registry.lookup })).toThrow('(attribute "mood"): an enumeration needs "enum"');
    expect(getContentType(buildModel(input({ enum: ['happy', 'sad'] }), { customFields: registry.lookup }), 'api::thing.thing').attributes.get('mood')).toMatchObject({
      type: 'enumeration',
      enum: ['happy', 'sad'],
    });
  });

  it("register() refuses what Strapi refuses, naming the field and the allowed types", () => {
    const registry = new CustomFields();
    const refused = (field: unknown, message: string) => {
      expect(() => registry.register(field as never)).toThrow(ConfigError);
      expect(() => registry.register(field as never)).toThrow(message);
    };
    refused(
      { name: 'place', type: 'relation' },
      'strapi.customFields.register({"name":"place","type":"relation"}): "type" must be one of biginteger, boolean, date, datetime, decimal, email, enumeration, float, integer, json, password, richtext, string, text, time, uid, not "relation"',
    );
    refused({ type: 'string' }, '"name" must be a name of letters, digits, $, _ or - (not starting with a digit)');
    refused({ name: '1st', type: 'string' }, '"name" must be a name');
    refused({ name: 'x', plugin: 'Bad Plugin', type: 'string' }, '"plugin" must be a plugin name');
    refused({ name: 'color', plugin: 'color-picker', type: 'string' }, 'plugin::color-picker.color is already registered (Cairn knows it: no need to declare it)');
    registry.register({ name: 'x', type: 'json' });
    refused({ name: 'x', type: 'json' }, 'global::x is already registered');
  });
});
