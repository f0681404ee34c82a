/**
 * What a command's action receives: the streams, the parsed global options,
 * and lazy access to settings, the API, output and prompts. Nothing heavy is
 * loaded until an action asks for it, so `--help` never pays for undici.
 */
import type { Command } from 'commander';
import type { Dispatcher } from 'undici';
import { quitAtOnce, type Io, type GlobalOptions } from '../lib/io.js';
import type { Api, HttpApi } from '../api/client.js';
import type { Output, OutputOptions } from '../output/index.js';
import type { Messages } from '../output/messages.js';
import type { Profile, ProfileStore, Tokens } from '../config/store.js';
import type { Revealed, Settings } from '../config/settings.js';
import type { Keychain } from '../lib/keychain.js';
import type { Prompter } from './prompter.js';
import { InterruptedError, KeychainError, MissingCredentialsError, UsageError } from '../lib/errors.js';
import type { ChangeGate } from '../audit/stamp.js';
import type { ChangeRecord } from '../audit/record.js';
import type { Resolution } from '../audit/resolve.js';
import type { StudentCache } from '../domain/resolve.js';

/** What names one profile's host and tokens in the environment (contract §5). */
const ONE_PROFILE_VARIABLES = ['MEMBERS_PROFILE', 'MEMBERS_BASE_URL', 'MEMBERS_TOKEN', 'MEMBERS_DEVELOPER_TOKEN', 'MEMBERS_PLATFORM_TOKEN'];

export interface SessionDeps {
  io: Io;
  /** Tests inject an undici MockAgent. */
  dispatcher?: Dispatcher;
  /**
   * A fresh program whose commands run in the sessions `session` makes
   * (program.ts buildProgram): `members each` runs a command per row with it.
   */
  newProgram?(io: Io, session: SessionFactory): Command;
}

/** How a command's session is made from its global options (parsed, and as commander gave them). */
export type SessionFactory = (options: GlobalOptions, raw: Record<string, unknown>) => Session;

/** What a run over rows tells `--summary FILE`: its record's id, rows by result and by product, its first failures. */
export interface RunSummaryFacts {
  run_id?: string;
  counts: Readonly<Record<string, number>>;
  /** A run that continued one cut short: its counts over every attempt (as its record holds them). */
  run_counts?: Readonly<Record<string, number>>;
  by_product?: Record<string, Record<string, number>>;
  failures: Array<{ line?: number; student?: string; product_id?: string; message: string }>;
}

export class Session {
  readonly io: Io;
  private apiInstance?: Promise<Api>;
  private connectableInstance?: Promise<Settings & { baseUrl: string; token: string }>;
  private readonly clients: HttpApi[] = [];
  private storeInstance?: { store: ProfileStore; writable: boolean };
  private settingsInstance?: Promise<Settings>;
  private messagesInstance?: Messages;
  private prompterInstance?: Prompter;
  private keychainInstance?: Promise<Keychain>;
  /** The tokens read from the keychain item of the profile in force. */
  private revealed?: Revealed;
  private exposureChecked = false;
  /** The `→ profile (host)` line was said: a read says it once. */
  private announced = false;
  /** While a command that changes something runs (guarded): told when each change begins and ends. */
  gate?: ChangeGate;
  /** A session of forProfile: what it prints goes here, to be merged with the other profiles'. */
  private capturedOutput?: Output;
  /** What a run over rows did (bulk forms, sync, each), for `--summary FILE` (entry/run-summary.ts). */
  runSummary?: RunSummaryFacts;
  /** The student lookups of the run this command is a row of (`members each`, row-session.ts): none for a command alone. */
  readonly lookups?: StudentCache;
  private recordInstance?: Promise<ChangeRecord>;

  constructor(readonly globals: GlobalOptions, private readonly deps: SessionDeps) {
    this.io = deps.io;
  }

  /** A fresh program running its commands in sessions `session` makes; see SessionDeps.newProgram. */
  newProgram(io: Io, session: SessionFactory): Command {
    if (!this.deps.newProgram) throw new Error('this session cannot build a program');
    return this.deps.newProgram(io, session);
  }

  get version(): string {
    return __MEMBERS_VERSION__;
  }

  /** The profiles; only the commands that change them ask for `write`, which loads conf. */
  async store(mode: 'read' | 'write' = 'read'): Promise<ProfileStore> {
    const writable = mode === 'write';
    if (!this.storeInstance || (writable && !this.storeInstance.writable)) {
      const [{ openProfileStore }, { configDir }, conf] = await Promise.all([
        import('../config/store.js'), import('../config/paths.js'), writable ? import('conf') : undefined,
      ]);
      this.storeInstance = { store: openProfileStore(configDir(this.io.env), conf?.default), writable };
    }
    return this.storeInstance.store;
  }

  async configDir(): Promise<string> {
    const { configDir } = await import('../config/paths.js');
    return configDir(this.io.env);
  }

  /**
   * The settings in force (flag > env > profile > default), resolved once per
   * run: the audit stamp, the announcement and the client all see the same.
   * (The auth commands that change the profiles read no settings after the change.)
   * The tokens of a profile that keeps them in the keychain are there only
   * once settingsWithTokens has read them.
   */
  settings(): Promise<Settings> {
    this.settingsInstance ??= this.resolveSettings();
    return this.settingsInstance;
  }

  private async resolveSettings(): Promise<Settings> {
    const { resolveSettings } = await import('../config/settings.js');
    return resolveSettings({ profile: this.globals.profile, baseUrl: this.globals.baseUrl }, this.io.env, await this.store(), this.revealed);
  }

  /**
   * The settings with the stored tokens a command needs: read from the
   * profile's keychain item (once per run) when they are there and the
   * environment does not give them all. Exit 3 when that keychain does not answer.
   */
  async settingsWithTokens(needed: 'api' | 'report' | 'all'): Promise<Settings> {
    const settings = await this.settings();
    const account = settings.keychainItem;
    const missing = {
      api: !settings.token,
      report: !settings.developerToken || !settings.platformToken,
      all: !settings.token || !settings.developerToken || !settings.platformToken,
    }[needed];
    if (!account || this.revealed?.account === account || !missing) return settings;
    this.revealed = { account, tokens: await this.keychainTokens(settings.profile, account) };
    this.settingsInstance = this.resolveSettings();
    return this.settingsInstance;
  }

  /** The tokens a stored profile keeps, in the file or in its keychain item (exit 3 when that keychain does not answer). */
  async storedTokens(name: string, profile: Profile): Promise<Tokens> {
    if (!profile.keychain) return { token: profile.token, developer_token: profile.developer_token, platform_token: profile.platform_token };
    return this.keychainTokens(name, profile.keychain);
  }

  private async keychainTokens(profile: string, account: string): Promise<Tokens> {
    const [{ readKeychainItem }, { NoKeychainError }] = await Promise.all([import('../config/token-storage.js'), import('../lib/keychain.js')]);
    try {
      return readKeychainItem(await this.keychain(), account);
    } catch (error) {
      if (!(error instanceof NoKeychainError)) throw error;
      throw new KeychainError(
        `the tokens of profile "${profile}" are in the OS keychain (item "${account}"), which did not answer: ${error.message}. `
          + `Unlock it and run again, give them in MEMBERS_TOKEN (and the report's variables), or store them in the config file with \`members auth login --profile ${profile} --insecure-storage\``,
        error.message,
      );
    }
  }

  /** The OS keychain, opened once (config/token-storage.ts); rejects with NoKeychainError when none answers. */
  keychain(): Promise<Keychain> {
    this.keychainInstance ??= import('../config/token-storage.js').then(({ openKeychain }) => openKeychain(this.io.env, this.io.keychain?.bind(this.io)));
    return this.keychainInstance;
  }

  /**
   * The settings in force for a command about to send requests: exit 2
   * before any request when there is no base URL; exit 3 when a token the
   * profile stores would go to another host (checked before its keychain is asked).
   */
  async settingsToConnect(needed: 'api' | 'report' = 'api'): Promise<Settings & { baseUrl: string }> {
    const { checkTokenOrigins } = await import('../config/settings.js');
    checkTokenOrigins(await this.settings(), needed);
    const settings = await this.settingsWithTokens(needed);
    if (!settings.baseUrl) {
      throw new UsageError(
        `no API base URL for profile "${settings.profile}": run \`members auth login --base-url URL\`, set MEMBERS_BASE_URL, or start \`members sandbox --login\``,
      );
    }
    // Issue 38: with several schools stored, a person at a terminal is told which one every read reads.
    if (!this.announced && this.io.stderr.isTTY === true && await this.severalProfilesStored()) await this.announceChange();
    return { ...settings, baseUrl: settings.baseUrl };
  }

  /**
   * The API client of the profile in force, made once a run (calls at the same
   * time get the same one); exit 3 before any request when there is no token.
   */
  api(): Promise<Api> {
    this.apiInstance ??= this.openApi().catch((error: unknown) => {
      this.apiInstance = undefined;
      throw error;
    });
    return this.apiInstance;
  }

  private async openApi(): Promise<Api> {
    const settings = await this.connectable();
    const api = await this.connect(settings.baseUrl, settings.token, [settings.developerToken, settings.platformToken]);
    const [dir, { saveCatalog }] = await Promise.all([this.configDir(), import('../config/catalog-cache.js')]);
    const baseUrl = settings.baseUrl;
    // Whole lists of products and courses, for completion's ids with titles (offline on Tab).
    api.onCatalog = (kind, items) => saveCatalog(dir, baseUrl, kind, items.map((item) => ({ id: item.id, title: item.title ?? '' })));
    await this.checkInterrupted(api);
    return api;
  }

  /**
   * What api() checks before it connects, once a run (its warnings said
   * once): the settings to connect with, the base URL and the proxy as the
   * client reads them (exit 2), a token (exit 3). `members mcp` asks this
   * before a client connects and makes the client at its first tool, so its
   * start loads no HTTP client.
   */
  connectable(): Promise<Settings & { baseUrl: string; token: string }> {
    this.connectableInstance ??= this.checkConnectable().catch((error: unknown) => {
      this.connectableInstance = undefined;
      throw error;
    });
    return this.connectableInstance;
  }

  private async checkConnectable(): Promise<Settings & { baseUrl: string; token: string }> {
    const settings = await this.settingsToConnect();
    if (!settings.token) {
      throw new MissingCredentialsError(
        `no API token for profile "${settings.profile}": run \`members auth login\` or set MEMBERS_TOKEN`,
      );
    }
    await this.checkCredentials(settings, 'api');
    const [{ validateBaseUrl }, { proxyFromEnv, proxyRoute }] = await Promise.all([import('../config/settings.js'), import('../api/transport/proxy.js')]);
    proxyRoute(validateBaseUrl(settings.baseUrl), proxyFromEnv(this.io.env));
    return { ...settings, token: settings.token };
  }

  /**
   * For the commands that read the log (history, undo): the changes of
   * interrupted runs are checked on the server first (through api(), as any
   * command that reaches the server does). Resolves to how many are left
   * unchecked (no token, no network); none without a server to ask.
   */
  async checkInterruptedChanges(): Promise<number> {
    const record = await this.teamRecord();
    if (record?.intents) {
      // A team record: its intents are checked by api(), from any machine; those left wait for a later run.
      if ((await record.intents.list()).length > 0) await this.api().catch(() => undefined);
      return 0;
    }
    const { orphanedIntents } = await import('../audit/resolve.js');
    // No base URL, an unknown profile: no server to check against; the log alone answers.
    const orphans = () => orphanedIntents(this).catch(() => []);
    if ((await orphans()).length === 0) return 0;
    await this.api().catch(() => undefined);
    // One whose request may still be on its way (before intent.deadline) is pending, not unchecked: the resolver said so.
    return (await orphans()).filter(({ intent }) => !(Date.parse(intent.deadline ?? '') > Date.now())).length;
  }

  /**
   * Before this run reads or changes the profile's data: the changes earlier
   * runs began and never recorded (killed, crashed) are checked on the server
   * and recorded now (audit/resolve.ts), and the user is told.
   */
  private async checkInterrupted(api: Api): Promise<void> {
    const record = await this.teamRecord();
    if (record?.intents) {
      const intents = record.intents;
      const { resolveTeamIntents } = await import('../audit/resolve.js');
      try {
        if ((await intents.list()).length === 0) return;
        return await this.tellResolution(await resolveTeamIntents(this, api, intents));
      } catch (error) {
        // Reads go on without the record; a change stops at its intent (exit 11).
        (await this.messages()).warn(`interrupted changes were not checked: ${(error as Error).message}`);
        return;
      }
    }
    const [dir, { listIntents }] = await Promise.all([this.configDir(), import('../audit/intents.js')]);
    // Most runs find none: the resolver (and the audit log's writer, with node:crypto) is loaded when one is there.
    if (listIntents(dir).length === 0) return;
    const { resolveInterrupted } = await import('../audit/resolve.js');
    await this.tellResolution(await resolveInterrupted(this, api));
  }

  /** What the check of interrupted changes found, on stderr. */
  private async tellResolution(resolution: Resolution): Promise<void> {
    const { resolutionNotice, pendingNotice, halfRenewalWarning } = await import('../audit/resolve.js');
    const notices = [resolutionNotice(resolution), pendingNotice(resolution)].filter((notice) => notice !== undefined);
    if (notices.length === 0) return;
    const messages = await this.messages();
    for (const notice of notices) messages.notice(notice);
    for (const record of resolution.halves) messages.warn(halfRenewalWarning(record));
  }

  /**
   * Before the tokens of `kind` are sent (settingsToConnect has checked that
   * the stored ones go only to their profile's host): a token from the
   * environment that overrides a stored one is warned about, and so is a
   * config file others can read or replace.
   */
  async checkCredentials(settings: Settings, kind: 'api' | 'report'): Promise<void> {
    const { overriddenTokens } = await import('../config/settings.js');
    const messages = await this.messages();
    for (const warning of overriddenTokens(settings, kind)) messages.warn(warning);
    await this.warnIfConfigExposed();
  }

  /**
   * Before stored tokens are used: say so when other users can read the
   * config holding them, or replace it — also when they are in the keychain,
   * where a replaced base URL would send them elsewhere (config/exposure.ts).
   */
  async warnIfConfigExposed(): Promise<void> {
    if (this.exposureChecked) return;
    this.exposureChecked = true;
    const [store, { storageOf }] = await Promise.all([this.store(), import('../config/store.js')]);
    const storages = new Set(store.list().map(([, profile]) => storageOf(profile)));
    const holds = storages.has('file') ? 'file' : storages.has('keychain') ? 'keychain' : undefined;
    if (holds === undefined) return;
    const { exposureWarnings } = await import('../config/exposure.js');
    const messages = await this.messages();
    for (const warning of exposureWarnings(store.path, holds)) messages.warn(warning);
  }

  /** A client for an explicit base URL and token (auth login checks a token before storing it). */
  async connect(baseUrl: string, token: string | undefined, otherSecrets: Array<string | undefined> = []): Promise<HttpApi> {
    const [{ validateBaseUrl }, { HttpClient }, { HttpApi }, { proxyFromEnv, proxyRoute, proxyDispatcher }, { Pacer }] = await Promise.all([
      import('../config/settings.js'), import('../api/transport/http.js'), import('../api/client.js'), import('../api/transport/proxy.js'),
      import('../api/transport/pacer.js'),
    ]);
    const url = validateBaseUrl(baseUrl);
    // HTTPS_PROXY and friends (checked even when this host bypasses them); tests inject their own dispatcher instead.
    const settings = proxyFromEnv(this.io.env);
    const proxy = this.deps.dispatcher ? undefined : proxyRoute(url, settings);
    const http = new HttpClient({
      baseUrl: url,
      token,
      timeoutMs: this.globals.timeoutMs,
      retries: this.globals.retries,
      userAgent: `members-cli/${this.version}`,
      secrets: [token, ...otherSecrets],
      log: this.globals.verbose ? (line) => this.io.stderr.write(`${line}\n`) : undefined,
      notice: (text) => void this.messages().then((messages) => messages.notice(text)),
      dispatcher: this.deps.dispatcher ?? (proxy && await proxyDispatcher(proxy.settings)),
      ownsDispatcher: proxy !== undefined,
      proxy: proxy && { shown: proxy.shown, variable: proxy.variable, credentials: proxy.credentials },
      // The runs on one token pace on one timeline in the record's home; the record opens only once a run is paced.
      // The pacer names the budget by the origin; the key stored is a hash of origin and token, made (with
      // node:crypto) when the budget is first consulted.
      pacer: token === undefined ? undefined : new Pacer(undefined, {
        key: url.origin,
        budget: {
          reserve: async (reservation) => {
            const [{ budgetKey }, record] = await Promise.all([import('../api/transport/budget-key.js'), this.changeRecord()]);
            // Opening the record may take a while (a connection, its migrations): the reservation starts from when it is made.
            return record.budget.reserve({ ...reservation, now: Math.max(reservation.now, Date.now()), key: budgetKey(reservation.key, token) });
          },
        },
      }),
    });
    const api = new HttpApi(http);
    this.clients.push(api);
    return api;
  }

  /**
   * The session of one of several profiles read at once (--profiles): its
   * own client, what it prints captured into `output`. The variables that
   * name one host and its tokens are left out: a token cannot serve two schools.
   */
  forProfile(profile: string, output: Output): Session {
    const env = { ...this.io.env };
    for (const variable of ONE_PROFILE_VARIABLES) delete env[variable];
    const io: Io = Object.assign(Object.create(this.io) as Io, { env });
    const session = new Session({ ...this.globals, profile, output: 'json', out: undefined }, { ...this.deps, io });
    session.capturedOutput = output;
    return session;
  }

  /** The renderer for this command's result; `overrides` let a command pick another default format. */
  async output(overrides: Partial<GlobalOptions> = {}, options: OutputOptions = {}): Promise<Output> {
    if (this.capturedOutput) return this.capturedOutput;
    const { createOutput } = await import('../output/index.js');
    return createOutput(this.io, { ...this.globals, ...overrides }, options);
  }

  async messages(): Promise<Messages> {
    if (!this.messagesInstance) {
      const { createMessages } = await import('../output/messages.js');
      this.messagesInstance = createMessages(this.io, this.globals);
    }
    return this.messagesInstance;
  }

  /** Contract §1.1: before a change, name the profile and host it goes to (a read at a terminal too, once several are stored). */
  async announceChange(): Promise<void> {
    this.announced = true;
    (await this.messages()).notice(`→ ${await this.school()}`);
  }

  /** `profile (host)`: which school this session reads and changes. */
  async school(): Promise<string> {
    const settings = await this.settings();
    return `${settings.profile} (${settings.baseUrl ? new URL(settings.baseUrl).host : 'no host'})`;
  }

  /** More than one profile is stored: the school a result comes from is worth naming. */
  async severalProfilesStored(): Promise<boolean> {
    return (await this.store()).list().length > 1;
  }

  /** Asks before a change (see Prompter.confirm): exit 2 off a terminal without --yes, 130 on Ctrl-C. */
  async confirm(question: string, typeToConfirm?: string): Promise<void> {
    await (await this.prompter()).confirm(question, typeToConfirm);
  }

  /** A yes/no question whose No is an answer (Prompter.agrees): true with --yes; exit 2 off a terminal without it. */
  async agrees(question: string): Promise<boolean> {
    return (await this.prompter()).agrees(question);
  }

  /** A secret from a hidden prompt on a terminal; undefined without one. */
  async promptSecret(message: string): Promise<string | undefined> {
    return (await this.prompter()).secret(message);
  }

  private async prompter(): Promise<Prompter> {
    if (!this.prompterInstance) {
      const { createPrompter } = await import('./prompter.js');
      this.prompterInstance = createPrompter(this.io, { yes: this.globals.yes });
    }
    return this.prompterInstance;
  }

  /**
   * Runs a command that changes something, so that Ctrl-C, SIGTERM and SIGHUP
   * end it with exit 130 and never lose a change: before a change is sent,
   * the command stops at once (nothing sent); while one is in flight (from the
   * journal's begin to its end) its request is waited for — its --timeout
   * bounds it — and its outcome recorded, and no further change is sent
   * (but the repair of a failed one: a renewal's restore). A second signal
   * finds no handler of ours and quits at once: the change's intent stays,
   * and the next run checks it on the server.
   */
  async guarded<T>(work: () => Promise<T>): Promise<T> {
    let inFlight = 0;
    let stopped = false;
    let stopNow: (error: Error) => void = () => undefined;
    const halted = new Promise<never>((_resolve, reject) => (stopNow = reject));
    halted.catch(() => undefined);
    const removers: Array<(() => void) | undefined> = [];
    const release = () => removers.splice(0).forEach((remove) => remove?.());
    const onSignal = (signal?: string) => {
      release();
      stopped = true;
      if (inFlight === 0) return stopNow(new InterruptedError('interrupted: nothing was changed'));
      void this.messages().then((messages) => messages.notice(
        `Stopping: waiting for the answer to the change in flight, to record it (${quitAtOnce(signal)}; the next members command then checks whether it went through)…`,
      ));
    };
    removers.push(this.io.onInterrupt(onSignal), this.io.onTerminate?.(onSignal));
    this.gate = {
      opening: (repair) => {
        if (stopped && !repair) throw new InterruptedError('interrupted before the next change was sent; it was not sent');
        inFlight++;
      },
      closed: () => void inFlight--,
    };
    try {
      const result = await Promise.race([work(), halted]);
      if (stopped) throw new InterruptedError('interrupted after the change in flight was answered; it is recorded (`members history`)');
      return result;
    } catch (error) {
      if (stopped && !(error instanceof InterruptedError)) {
        throw new InterruptedError(`interrupted; the change in flight ended so: ${(error as Error).message}`);
      }
      throw error;
    } finally {
      release();
      // Stopped, the work may still be running (abandoned): its gate keeps refusing new changes.
      if (!stopped) this.gate = undefined;
    }
  }

  /**
   * The change record of the profile in force (audit/record.ts): the local
   * files, or the team's PostgreSQL that `members record use` stored or
   * MEMBERS_RECORD_URL names (its password from the keychain or the file).
   * Opened once per run; pg loads only for a team record.
   */
  changeRecord(): Promise<ChangeRecord> {
    this.recordInstance ??= this.openChangeRecord();
    return this.recordInstance;
  }

  /** The team record when the profile uses one; undefined (nothing loaded: a read of the API pays nothing) for the local files. */
  private async teamRecord(): Promise<ChangeRecord | undefined> {
    if (this.recordInstance) return (await this.recordInstance).home === 'local' ? undefined : this.recordInstance;
    const [{ recordSetting }, settings] = await Promise.all([import('../config/record-setting.js'), this.settings().catch(() => undefined)]);
    return recordSetting(this.io.env, settings?.stored).home === 'local' ? undefined : this.changeRecord();
  }

  private async openChangeRecord(): Promise<ChangeRecord> {
    const [{ recordSetting }, settings] = await Promise.all([import('../config/record-setting.js'), this.settings().catch(() => undefined)]);
    const setting = recordSetting(this.io.env, settings?.stored);
    if (setting.home === 'local') {
      const { LocalRecord } = await import('../audit/record.js');
      return new LocalRecord(await this.configDir());
    }
    const { openPostgresRecord } = await import('../audit/postgres-record.js');
    const password = setting.passwordIn === 'keychain' ? await this.recordPassword(setting.account as string) : setting.password;
    return openPostgresRecord(setting.url, { password });
  }

  /** The team record's password from its keychain item; exit 11 when that keychain does not answer (nothing may be sent unrecorded). */
  private async recordPassword(account: string): Promise<string | undefined> {
    const [{ NoKeychainError }, { RecordUnavailableError }] = await Promise.all([import('../lib/keychain.js'), import('../lib/errors.js')]);
    try {
      return (await this.keychain()).get(account) ?? undefined;
    } catch (error) {
      if (!(error instanceof NoKeychainError)) throw error;
      throw new RecordUnavailableError(`the password of the team record is in the OS keychain (item "${account}"), which did not answer: ${error.message}. `
        + 'Unlock it, give the URL with its password in MEMBERS_RECORD_URL (or PGPASSWORD), or store it again with `members record use URL`; see `members record status`');
    }
  }

  /** Ends the clients and the record: waiting for requests in flight, or (`abandon`, after an interrupt) cancelling them. */
  async close(abandon = false): Promise<void> {
    const record = this.recordInstance?.then((opened) => opened.close(), () => undefined);
    await Promise.all([...this.clients.map((client) => client.close(abandon)), record]);
  }
}
