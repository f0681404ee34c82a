#!/usr/bin/env bash
# Packs members-cli, checks what the tarball ships, installs it globally into a
# temporary prefix as a user would, and runs it: --version, the completion
# scripts, the manual page (man members), and a session against `members
# sandbox`. The esbuild bundle is
# self-contained: the one runtime dependency is the OS keychain's native
# library, an optional dependency (its platform's prebuilt binary), which the
# installed members loads for a login into a private Secret Service.
# Usage: scripts/pack-test.sh   (builds first; needs the npm registry or cache)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/members-pack.XXXXXX")
sandbox_pid=""
stop_sandbox() {
  if [[ -n $sandbox_pid ]]; then
    kill "$sandbox_pid" 2>/dev/null || true
    wait "$sandbox_pid" 2>/dev/null || true
    sandbox_pid=""
  fi
}
trap 'stop_sandbox; rm -rf "$work"' EXIT

fail() {
  echo "pack-test: FAIL: $*" >&2
  exit 1
}

version=$(node -p 'require("./package.json").version')
npm run build --silent  # (npm pack builds too, through "prepack"; the listing below does not run it)

# 1. What the tarball ships: package.json, README and docs/ (the README links there), bin, dist
#    (no tests, no sources), completions; nothing else.
npm pack --dry-run --json --silent --ignore-scripts > "$work/pack.json"
node - "$work/pack.json" <<'EOF' || fail "the tarball's contents (see above)"
const fs = require('node:fs');
const [pack] = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const paths = pack.files.map((file) => file.path);
const allowed = [
  /^package\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^docs\/[\w-]+\.md$/, /^LICENSE(\.md)?$/, /^bin\/(members\.js|code-cache\.js|package\.json)$/,
  /^dist\/[\w-]+\.cjs$/, /^dist\/help\.txt$/, /^completions\/(members\.bash|_members|members\.fish|members\.ps1)$/, /^man\/members\.1$/,
];
const required = ['package.json', 'README.md', 'docs/contract.md', 'bin/members.js', 'bin/code-cache.js', 'bin/package.json', 'dist/main.cjs', 'dist/mcp.cjs', 'dist/mcp-sdk.cjs', 'dist/complete.cjs', 'dist/xlsx.cjs', 'dist/xlsx-read.cjs', 'dist/help.txt',
  'completions/members.bash', 'completions/_members', 'completions/members.fish', 'completions/members.ps1', 'man/members.1'];
const unexpected = paths.filter((path) => !allowed.some((pattern) => pattern.test(path)) || /\.test\.|\bfixtures?\b/.test(path));
const missing = required.filter((path) => !paths.includes(path));
const sum = (filter) => pack.files.filter(filter).reduce((total, file) => total + file.size, 0);
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
console.log(`pack-test: ${pack.filename}: ${pack.entryCount} files, ${mb(pack.size)} packed, ${mb(pack.unpackedSize)} unpacked`
  + ` (source maps ${mb(sum((file) => file.path.endsWith('.map')))}, JavaScript ${mb(sum((file) => /\.c?js$/.test(file.path)))})`);
if (unexpected.length) console.error(`unexpected in the tarball: ${unexpected.join(', ')}`);
if (missing.length) console.error(`missing from the tarball: ${missing.join(', ')}`);
process.exit(unexpected.length || missing.length ? 1 : 0);
EOF

# 2. Install it as a user would: npm install -g from the tarball.
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
prefix="$work/prefix"
npm install -g "$work/$tarball" --prefix "$prefix" --no-audit --no-fund --prefer-offline --loglevel=error > /dev/null
members="$prefix/bin/members"
[[ -x $members ]] || fail "no executable $members after npm install -g"
# The manual page ("man" in package.json): npm links it into the prefix's man directory, where `man members` finds it.
page="$prefix/share/man/man1/members.1"
[[ -f $page ]] || fail "no manual page $page after npm install -g"
cmp -s "$page" man/members.1 || fail "the installed manual page differs from man/members.1"
if command -v man > /dev/null; then
  [[ $(MANPATH="$prefix/share/man" man -w members) -ef $page ]] || fail "man -w members does not find $page"
  warnings=$(MANPATH="$prefix/share/man" MANWIDTH=80 man --warnings members 2>&1 > /dev/null) || fail "man members exited with $?: $warnings"
  [[ -z $warnings ]] || fail "man members warns: $warnings"
  echo "pack-test: man members: $page, rendered without warnings: ok"
elif [[ ${MEMBERS_REQUIRE_SHELLS:-} == 1 ]]; then
  fail "man is required to check the manual page (MEMBERS_REQUIRE_SHELLS=1): apt-get install man-db"
fi

# A clean environment: no MEMBERS_* from the caller, an empty config directory.
session() { # session NAME: --version, completion, and a sandbox round trip
  local name=$1 config="$work/config-$1" out="$work/sandbox-$1.json"
  mkdir -p "$config"
  local -a env_clean=(env -i "PATH=$PATH" "HOME=$work" "LANG=C.UTF-8" "MEMBERS_CONFIG_DIR=$config")

  local got
  got=$("${env_clean[@]}" "$members" --version | head -n 1) || fail "$name: members --version exited with $?"
  [[ $got == "members $version" ]] || fail "$name: members --version printed '$got' first, expected 'members $version'"

  "${env_clean[@]}" "$members" completion bash | cmp -s - completions/members.bash \
    || fail "$name: the installed members prints another bash script than completions/members.bash"
  "${env_clean[@]}" "$members" --help | cmp -s - dist/help.txt \
    || fail "$name: the installed members --help differs from dist/help.txt"

  "${env_clean[@]}" "$members" sandbox --port 0 -o json --quiet > "$out" 2> "$work/sandbox-$name.err" &
  sandbox_pid=$!
  local tries=0
  until [[ -s $out ]]; do
    kill -0 "$sandbox_pid" 2>/dev/null || fail "$name: members sandbox exited: $(cat "$work/sandbox-$name.err")"
    (( ++tries <= 200 )) || fail "$name: members sandbox printed nothing in 20 s"
    sleep 0.1
  done
  local base_url token
  base_url=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").split("\n")[0]).base_url)' "$out")
  token=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").split("\n")[0]).api_token)' "$out")

  local products
  products=$("${env_clean[@]}" "MEMBERS_BASE_URL=$base_url" "MEMBERS_TOKEN=$token" "$members" products list -o json) \
    || fail "$name: members products list exited with $?"
  node -e 'const list = JSON.parse(process.argv[1]); if (!Array.isArray(list) || list.length === 0 || !list[0].id) process.exit(1)' "$products" \
    || fail "$name: members products list printed no products: $products"
  # The xlsx writer is a bundle of its own (dist/xlsx.cjs), required beside dist/main.cjs.
  "${env_clean[@]}" "MEMBERS_BASE_URL=$base_url" "MEMBERS_TOKEN=$token" "$members" products list --out "$work/products-$name.xlsx" \
    || fail "$name: members products list --out FILE.xlsx exited with $?"
  [[ $(head -c 2 "$work/products-$name.xlsx") == PK ]] || fail "$name: products-$name.xlsx is no workbook (zip)"
  # And the reader (dist/xlsx-read.cjs): a workbook of students read back as the rows of `members each`.
  "${env_clean[@]}" "MEMBERS_BASE_URL=$base_url" "MEMBERS_TOKEN=$token" "$members" students list --out "$work/students-$name.xlsx" \
    || fail "$name: members students list --out FILE.xlsx exited with $?"
  "${env_clean[@]}" "MEMBERS_BASE_URL=$base_url" "MEMBERS_TOKEN=$token" "$members" each "$work/students-$name.xlsx" --dry-run -- students get '{id}' >/dev/null \
    || fail "$name: members each students-$name.xlsx --dry-run exited with $?"

  kill -TERM "$sandbox_pid"
  wait "$sandbox_pid" || fail "$name: members sandbox did not stop cleanly on SIGTERM"
  sandbox_pid=""
  echo "pack-test: $name: --version, --help, completion bash, sandbox + products list (${#products} bytes of JSON, and a workbook): ok"
}

session installed

# 3. Nothing else was installed but the keychain's library and its platform's binary: the bundle carries the rest.
installed=$(cd "$prefix/lib/node_modules/members-cli" && { ls -d node_modules/* node_modules/@*/* 2>/dev/null || true; } | grep -v '^node_modules/@[^/]*$' | sort | tr '\n' ' ')
[[ $installed =~ ^node_modules/@napi-rs/keyring\ node_modules/@napi-rs/keyring-[a-z0-9-]+\ $ ]] \
  || fail "npm install -g installed other dependencies than @napi-rs/keyring and its binary: $installed"

# 4. The installed members finds that library (outside the bundle, required from its node_modules):
#    a login into a private, unlocked Secret Service (gnome-keyring on its own session bus) stores the token there.
if command -v gnome-keyring-daemon > /dev/null && command -v dbus-run-session > /dev/null; then
  keyring="$work/keyring"
  mkdir -p -m 700 "$keyring" "$keyring/run" "$keyring/data"
  env -i "PATH=$PATH" "HOME=$work" "LANG=C.UTF-8" "MEMBERS_CONFIG_DIR=$work/config-keychain" "MEMBERS_TOKEN=pack-test-token" \
    "XDG_RUNTIME_DIR=$keyring/run" "XDG_DATA_HOME=$keyring/data" "GNOME_KEYRING_CONTROL=$keyring/run/keyring" "members=$members" \
    dbus-run-session -- sh -c '
      set -e
      printf %s pack-test | gnome-keyring-daemon --unlock --components=secrets > /dev/null
      gnome-keyring-daemon --start --components=secrets > /dev/null
      "$members" auth login --base-url https://members.example.com --no-verify
      MEMBERS_TOKEN= "$members" auth status --offline -o json' > "$keyring/status.json" 2> "$keyring/stderr" \
    || fail "a login into a Secret Service failed: $(cat "$keyring/stderr")"
  grep -q 'the tokens are in the Secret Service' "$keyring/stderr" && grep -q '"stored_in":"keychain"' "$keyring/status.json" \
    || fail "the installed members did not store the token in the Secret Service: $(cat "$keyring/stderr" "$keyring/status.json")"
  echo "pack-test: keychain: auth login stored the token in a Secret Service through the installed @napi-rs/keyring: ok"
elif [[ ${MEMBERS_REQUIRE_KEYRING:-} == 1 ]]; then
  fail "gnome-keyring-daemon and dbus-run-session are required (MEMBERS_REQUIRE_KEYRING=1): apt-get install gnome-keyring dbus-daemon"
fi
echo "pack-test: ok"
