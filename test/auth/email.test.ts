import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A real SMTP server on a free port: what the app's email provider (nodemailer) delivers to, parsed. */
async function startMailbox() {
  const received: ParsedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(new Error('mailbox unavailable')));
        return;
      }
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    /** The mails sent to `to` so far. */
    to: (to: string) => received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value.some((a) => a.address === to)),
    refuse: (on: boolean) => (refusing = on),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

const model = (port: number) => ({
  contentTypes: {
    note: {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { title: { type: 'string' } },
    },
  },
  config: {
    server: { url: 'https://cms.example.com' },
    plugins: {
      'users-permissions': { config: { jwtSecret: 'email-secret', ratelimit: { max: 1000 } } },
      // Strapi's nodemailer provider, installed from npm, resolved as Strapi resolves it (`@strapi/provider-email-<name>`).
      email: { config: { provider: 'nodemailer', providerOptions: { host: '127.0.0.1', port, secure: false, ignoreTLS: true }, settings: { defaultFrom: 'cms@example.com' } } },
    },
    admin: { apiToken: { salt: 'email-salt' } },
  },
});

describeEachDialect('users-permissions emails: forgot password, email confirmation, advanced settings', (dialect) => {
  let app: TestApp;
  let mailbox: Mailbox;
  const none = { authorization: '' };
  const store = () => app.cairn.strapi.store({ type: 'plugin', name: 'users-permissions' });
  const setAdvanced = async (changes: Record<string, unknown>) => {
    const advanced = (await store().get({ key: 'advanced' })) as Record<string, unknown>;
    await store().set({ key: 'advanced', value: { ...advanced, ...changes } });
  };
  const register = (username: string, email: string, password = 'secret12') => app.request('POST', '/api/auth/local/register', { username, email, password }, none);
  const login = (identifier: string, password = 'secret12') => app.request('POST', '/api/auth/local', { identifier, password }, none);
  /** The one query parameter `name` of the first link in the mail's text. */
  const linkParam = (mail: ParsedMail, name: string) => new URL(/https?:\/\/[^\s<"]+/.exec(mail.text ?? '')![0]).searchParams.get(name)!;
  const waitFor = async (to: string, count: number) => {
    for (let i = 0; i < 100 && mailbox.to(to).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return mailbox.to(to);
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    app = await startTestApp(dialect, model(mailbox.port));
  });
  afterAll(async () => {
    await app?.close();
    await mailbox?.close();
  });
  beforeEach(async () => {
    mailbox.refuse(false);
    await setAdvanced({ allow_register: true, unique_email: true, email_confirmation: false, email_reset_password: 'https://front.example.com/reset', email_confirmation_redirection: 'https://front.example.com/confirmed', default_role: 'authenticated' });
  });

  it('forgot-password emails a reset code through the provider; reset-password takes it once', async () => {
    expect((await register('forgetful', 'Forgetful@Example.com')).status).toBe(200);
    const asked = await app.request('POST', '/api/auth/forgot-password', { email: 'FORGETFUL@example.com' }, none);
    expect(asked).toMatchObject({ status: 200, body: { ok: true } });
    const [mail] = await waitFor('forgetful@example.com', 1);
    // The reset_password template of Strapi's email settings, its URL the advanced settings' email_reset_password.
    expect(mail.subject).toBe('Reset password');
    expect(mail.from!.text).toBe('"Administration Panel" <no-reply@strapi.io>');
    expect(mail.text).toContain('https://front.example.com/reset?code=');
    const code = linkParam(mail, 'code');
    expect(code).toMatch(/^[0-9a-f]{128}$/);
    const reset = await app.request('POST', '/api/auth/reset-password', { code, password: 'new secret', passwordConfirmation: 'new secret' }, none);
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ username: 'forgetful' });
    expect((await login('forgetful', 'new secret')).status).toBe(200);
    expect((await login('forgetful')).status).toBe(400);
    const again = await app.request('POST', '/api/auth/reset-password', { code, password: 'third pass', passwordConfirmation: 'third pass' }, none);
    expect(again.body.error).toMatchObject({ name: 'ValidationError', message: 'Incorrect code provided' });
  });

  it('forgot-password tells nothing of unknown or blocked addresses, and refuses bad input', async () => {
    const unknown = await app.request('POST', '/api/auth/forgot-password', { email: 'nobody@example.com' }, none);
    expect(unknown).toMatchObject({ status: 200, body: { ok: true } });
    const cases: Array<[unknown, string]> = [
      [{}, 'email is a required field'],
      [{ email: 'not-an-email' }, 'email must be a valid email'],
      [{ email: 42 }, 'email must be a `string` type'],
      [{ email: 'a@example.com', url: 'https://evil.example.com' }, 'this field has unspecified keys: url'],
    ];
    for (const [body, message] of cases) {
      const res = await app.request('POST', '/api/auth/forgot-password', body, none);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', message });
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(mailbox.to('nobody@example.com')).toHaveLength(0);
  });

  it('with email_confirmation on, register sends the confirmation link and answers no token; login waits for the confirmation', async () => {
    await setAdvanced({ email_confirmation: true });
    const registered = await register('newcomer', 'newcomer@example.com');
    expect(registered.status).toBe(200);
    expect(registered.body.jwt).toBeUndefined();
    expect(registered.body.user).toMatchObject({ username: 'newcomer', confirmed: false });
    expect(registered.body.user).not.toHaveProperty('confirmationToken');
    const [mail] = await waitFor('newcomer@example.com', 1);
    expect(mail.subject).toBe('Account confirmation');
    // <%= URL %> is the server's absolute URL (server.url) with the REST prefix.
    expect(mail.text).toMatch(/https:\/\/cms\.example\.com\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40}/);
    const unconfirmed = await login('newcomer');
    expect(unconfirmed.body.error).toMatchObject({ name: 'ApplicationError', message: 'Your account email is not confirmed' });

    expect(await fetchLocation(app, linkParam(mail, 'confirmation'))).toBe('https://front.example.com/confirmed');
    expect((await login('newcomer')).status).toBe(200);
    const reused = await app.request('GET', `/api/auth/email-confirmation?confirmation=${linkParam(mail, 'confirmation')}`, undefined, none);
    expect(reused.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid token' });
    const missing = await app.request('GET', '/api/auth/email-confirmation', undefined, none);
    expect(missing.body.error).toMatchObject({ name: 'ValidationError', message: 'confirmation is a required field' });
  });

  it('the confirmation redirects where the advanced settings say; send-email-confirmation replaces the token', async () => {
    await setAdvanced({ email_confirmation: true });
    await register('resender', 'resender@example.com');
    const [first] = await waitFor('resender@example.com', 1);
    const resent = await app.request('POST', '/api/auth/send-email-confirmation', { email: 'resender@example.com' }, none);
    expect(resent).toMatchObject({ status: 200, body: { email: 'resender@example.com', sent: true } });
    const [, second] = await waitFor('resender@example.com', 2);
    expect(linkParam(second, 'confirmation')).not.toBe(linkParam(first, 'confirmation'));
    const stale = await app.request('GET', `/api/auth/email-confirmation?confirmation=${linkParam(first, 'confirmation')}`, undefined, none);
    expect(stale.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid token' });
    expect(await fetchLocation(app, linkParam(second, 'confirmation'))).toBe('https://front.example.com/confirmed');
    const again = await app.request('POST', '/api/auth/send-email-confirmation', { email: 'resender@example.com' }, none);
    expect(again.body.error).toMatchObject({ name: 'ApplicationError', message: 'Already confirmed' });
    const unknown = await app.request('POST', '/api/auth/send-email-confirmation', { email: 'ghost@example.com' }, none);
    expect(unknown.body).toEqual({ email: 'ghost@example.com', sent: true });
  });

  it('GraphQL forgotPassword and emailConfirmation, as the REST routes', async () => {
    await setAdvanced({ email_confirmation: true });
    await register('grapher', 'grapher@example.com');
    const [mail] = await waitFor('grapher@example.com', 1);
    const gql = async (query: string, variables: Record<string, unknown>) => (await app.request('POST', '/graphql', { query, variables }, none)).body;
    const confirm = 'mutation($c: String!) { emailConfirmation(confirmation: $c) { jwt user { username confirmed } } }';
    const bad = await gql(confirm, { c: 'not-a-real-token' });
    expect(bad.data).toEqual({ emailConfirmation: null });
    expect(bad.errors[0]).toMatchObject({ message: 'Invalid token', path: ['emailConfirmation'] });
    const ok = await gql(confirm, { c: linkParam(mail, 'confirmation') });
    expect(ok.data.emailConfirmation.user).toEqual({ username: 'grapher', confirmed: true });
    expect(typeof ok.data.emailConfirmation.jwt).toBe('string');
    const me = await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${ok.data.emailConfirmation.jwt}` });
    expect(me.body.username).toBe('grapher');

    const forgot = await gql('mutation($e: String!) { forgotPassword(email: $e) { ok } }', { e: 'grapher@example.com' });
    expect(forgot).toEqual({ data: { forgotPassword: { ok: true } } });
    expect((await waitFor('grapher@example.com', 2))[1].subject).toBe('Reset password');
  });

  it('a provider that fails: 400 naming the email, the cause logged; the token is kept, as Strapi keeps it', async () => {
    await setAdvanced({ email_confirmation: true });
    mailbox.refuse(true);
    const registered = await register('unlucky', 'unlucky@example.com');
    expect(registered.status).toBe(400);
    expect(registered.body.error).toMatchObject({ name: 'ApplicationError', message: 'Error sending confirmation email' });
    const logged = app.logs().find((line) => line.msg === 'users-permissions: Error sending confirmation email');
    expect(logged?.err?.message).toContain('mailbox unavailable');
    const users = app.cairn.strapi.db.query('plugin::users-permissions.user');
    const stored = await users.findOne({ where: { username: 'unlucky' }, select: ['confirmationToken', 'confirmed'] });
    expect(stored).toMatchObject({ confirmed: false, confirmationToken: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const forgot = await app.request('POST', '/api/auth/forgot-password', { email: 'unlucky@example.com' }, none);
    expect(forgot.body.error).toMatchObject({ name: 'ApplicationError', message: 'Error sending reset password email' });
    mailbox.refuse(false);
    // The confirmation still works with the stored token (an administrator can send the link).
    expect(await fetchLocation(app, String((stored as Record<string, unknown>).confirmationToken))).toBe('https://front.example.com/confirmed');
  });

  it('register refuses an email or username another user holds as either one; unique_email off lets another provider\'s user keep theirs', async () => {
    expect((await register('holder', 'holder@example.com')).status).toBe(200);
    const taken = async (username: string, email: string) => {
      const res = await register(username, email);
      return res.status === 400 && res.body.error.message === 'Email or Username are already taken';
    };
    expect(await taken('holder', 'other@example.com')).toBe(true);
    expect(await taken('other', 'HOLDER@example.com')).toBe(true);
    // An email taken as a username, a username taken as an email: login by identifier would find two users.
    expect(await taken('holder@example.com', 'third@example.com')).toBe(true);
    expect((await register('fourth', 'fourth@example.com')).status).toBe(200);
    const users = app.cairn.strapi.db.query('plugin::users-permissions.user');
    await users.update({ where: { username: 'fourth' }, data: { provider: 'github' } });
    expect(await taken('fifth', 'fourth@example.com')).toBe(true);
    await setAdvanced({ unique_email: false });
    // Strapi 5.54: without unique_email, only the local provider's users count (a username stays unique anyway).
    const local = await register('fifth', 'fourth@example.com');
    expect(local.status, JSON.stringify(local.body)).toBe(200);
    expect(await taken('holder', 'sixth@example.com')).toBe(true);
  });

  it('the advanced settings Strapi\'s admin edits: allow_register, default_role, and the Email provider switch', async () => {
    await setAdvanced({ allow_register: false });
    const refused = await register('latecomer', 'latecomer@example.com');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ name: 'ApplicationError', message: 'Register action is currently disabled' });
    await setAdvanced({ allow_register: true, default_role: 'public' });
    expect((await register('plain', 'plain@example.com')).status).toBe(200);
    const roleOf = async (username: string) =>
      (await app.cairn.db.query<{ type: string }>('SELECT r.type FROM up_users u JOIN up_users_role_lnk l ON l.user_id = u.id JOIN up_roles r ON r.id = l.role_id WHERE u.username = ?', [username]))[0]?.type;
    expect(await roleOf('plain')).toBe('public');
    await setAdvanced({ default_role: 'no-such-role' });
    const noRole = await register('orphan', 'orphan@example.com');
    expect(noRole.body.error).toMatchObject({ name: 'ApplicationError', message: 'Impossible to find the default role' });
    const grant = (await store().get({ key: 'grant' })) as Record<string, Record<string, unknown>>;
    await store().set({ key: 'grant', value: { ...grant, email: { ...grant.email, enabled: false } } });
    try {
      const off = await login('plain');
      expect(off.body.error).toMatchObject({ name: 'ApplicationError', message: 'This provider is disabled' });
    } finally {
      await store().set({ key: 'grant', value: grant });
    }
    expect((await login('plain')).status).toBe(200);
  });
});

/** The Location of a confirmation link's answer (undefined: not a redirect). */
async function fetchLocation(app: TestApp, token: string): Promise<string | undefined> {
  const res = await app.cairn.fastify.inject({ method: 'GET', url: `/api/auth/email-confirmation?confirmation=${token}` });
  return res.statusCode === 302 ? String(res.headers.location) : undefined;
}

describe('the email provider at start', () => {
  it('a configured provider that is not installed stops the start, named', async () => {
    const broken = { ...model(1), config: { ...model(1).config, plugins: { email: { config: { provider: 'carrier-pigeon' } } } } };
    await expect(startTestApp('sqlite', broken)).rejects.toThrow(/email provider "carrier-pigeon" is not installed/);
  });
});
