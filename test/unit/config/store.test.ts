import Conf from 'conf';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, memoryProfileStore, openProfileStore, type ProfileStore } from '../../../src/config/store.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'members-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const production = { base_url: 'https://members.example.com', token: 'tok-prod', developer_token: 'dev-prod', platform_token: 'plat-prod' };
const staging = { base_url: 'https://staging.example.com', token: 'tok-staging' };

// The same behaviour is required of the conf-backed store and the in-memory one.
describe.each([
  ['conf', () => openProfileStore(path.join(tmp, 'members'), Conf)],
  ['memory', () => memoryProfileStore()],
])('%s store', (_kind, make: () => ProfileStore) => {
  it('makes the first saved profile active, and only the first', () => {
    const store = make();
    expect(store.active()).toBeUndefined();
    store.save('production', production);
    store.save('staging', staging);
    expect(store.active()).toBe('production');
    expect(store.get('staging')).toEqual(staging);
  });

  it('lists profiles sorted by name', () => {
    const store = make();
    store.save('staging', staging);
    store.save('production', production);
    expect(store.list()).toEqual([
      ['production', production],
      ['staging', staging],
    ]);
  });

  it('switches the active profile only to one that exists', () => {
    const store = make();
    store.save('production', production);
    store.save('staging', staging);
    expect(store.setActive('staging')).toBe(true);
    expect(store.active()).toBe('staging');
    expect(store.setActive('nope')).toBe(false);
    expect(store.active()).toBe('staging');
  });

  it('forgets the three tokens on logout and keeps the base URL', () => {
    const store = make();
    store.save('production', production);
    expect(store.forgetTokens('production')).toBe(true);
    expect(store.get('production')).toEqual({ base_url: 'https://members.example.com' });
    expect(store.forgetTokens('nope')).toBe(false);
  });

  it('does not resolve names through Object.prototype', () => {
    const store = make();
    expect(store.get('constructor')).toBeUndefined();
    expect(store.get('__proto__')).toBeUndefined();
  });

  it('refuses a profile name that is not a plain word', () => {
    const store = make();
    for (const name of ['', '__proto__', '-x', 'a b', 'a/b']) {
      expect(() => store.save(name, staging), name).toThrow(/invalid profile name/);
    }
    expect(store.list()).toEqual([]);
  });

  it('keeps its own copy of a saved profile', () => {
    const store = make();
    const profile = { ...staging };
    store.save('staging', profile);
    profile.token = 'changed';
    store.get('staging')!.token = 'changed too';
    expect(store.get('staging')).toEqual(staging);
  });
});

describe('openProfileStore on disk', () => {
  it('without conf reads the file as it is and refuses to change it', () => {
    openProfileStore(tmp, Conf).save('production', production);
    const reader = openProfileStore(tmp);
    expect(reader.list()).toEqual([['production', production]]);
    expect(reader.active()).toBe('production');
    expect(() => reader.save('staging', staging)).toThrow(/opened read-only/);
    expect(openProfileStore(path.join(tmp, 'none')).list()).toEqual([]);
    expect(fs.existsSync(path.join(tmp, 'none'))).toBe(false);
  });

  it('touches nothing until a method is called', () => {
    const dir = path.join(tmp, 'members');
    const store = openProfileStore(dir, Conf);
    expect(store.path).toBe(path.join(dir, 'config.json'));
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('creates the directory (and missing parents) with mode 0700 and the file with 0600', () => {
    const dir = path.join(tmp, 'nested', 'members');
    const store = openProfileStore(dir, Conf);
    store.save('production', production);
    expect(mode(path.join(tmp, 'nested'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
  });

  it('writes 0600 again on a rewrite, even if the file was loosened meanwhile', () => {
    const store = openProfileStore(tmp, Conf);
    store.save('production', production);
    fs.chmodSync(store.path, 0o644);
    store.save('staging', staging);
    expect(mode(store.path)).toBe(0o600);
    expect(fs.readdirSync(tmp)).toEqual(['config.json']);
  });

  it('leaves the mode of an existing directory alone', () => {
    fs.chmodSync(tmp, 0o755);
    openProfileStore(tmp, Conf).save('production', production);
    expect(mode(tmp)).toBe(0o755);
  });

  it('writes the documented file shape', () => {
    const store = openProfileStore(tmp, Conf);
    store.save('production', production);
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual({ active: 'production', profiles: { production } });
  });

  it('sees changes written by another store instance (another process)', () => {
    const first = openProfileStore(tmp, Conf);
    const second = openProfileStore(tmp, Conf);
    first.save('production', production);
    second.save('staging', staging);
    expect(first.list().map(([name]) => name)).toEqual(['production', 'staging']);
  });

  it('keeps keys it does not know when it rewrites the file', () => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ note: 'by hand', profiles: { production: { ...production, region: 'eu' } } }));
    const store = openProfileStore(tmp, Conf);
    store.save('staging', staging);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.note).toBe('by hand');
    expect(written.profiles.production.region).toBe('eu');
  });

  describe('a broken config file', () => {
    const broken = (content: string) => {
      const file = path.join(tmp, 'config.json');
      fs.writeFileSync(file, content, { mode: 0o600 });
      return { store: openProfileStore(tmp, Conf), file };
    };
    const errorOf = (fn: () => unknown): ConfigError => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return error as ConfigError;
      }
      throw new Error('expected a ConfigError');
    };

    it('is reported, exit code 2, naming the file but never quoting its text, and left untouched', () => {
      const content = '{"profiles": {"p": {"base_url": "https://x", "token": sekrit-token-1234}}}';
      const { store, file } = broken(content);
      const error = errorOf(() => store.list());
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(`config file ${file} is not valid JSON; fix or remove it`);
      expect(errorOf(() => store.save('staging', staging)).message).toBe(error.message);
      expect(errorOf(() => store.forgetTokens('p')).message).toBe(error.message);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
      expect(fs.readdirSync(tmp)).toEqual(['config.json']);
    });

    it('says where the JSON breaks when the parser knows', () => {
      const { store, file } = broken('{\n  "profiles": {},\n}\n');
      expect(errorOf(() => store.list()).message).toBe(
        `config file ${file} is not valid JSON (line 3, column 1); fix or remove it`,
      );
    });

    it('is reported when the JSON does not match the schema, and left untouched', () => {
      const content = JSON.stringify({ active: 'p', profiles: { p: { token: 'sekrit-token-1234' }, q: { base_url: 42 } } });
      const { store, file } = broken(content);
      const error = errorOf(() => store.active());
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(
        `config file ${file} has an unexpected shape (` +
          'profiles.p.base_url: Invalid input: expected string, received undefined; ' +
          'profiles.q.base_url: Invalid input: expected string, received number); fix or remove it',
      );
      expect(errorOf(() => store.save('staging', staging)).message).toBe(error.message);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    });

    it('is reported when the top level is not an object', () => {
      const { store, file } = broken('[]');
      expect(errorOf(() => store.list()).message).toBe(
        `config file ${file} has an unexpected shape ((top level): Invalid input: expected object, received array); fix or remove it`,
      );
      expect(fs.readFileSync(file, 'utf8')).toBe('[]');
    });
  });
});
