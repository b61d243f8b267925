#!/usr/bin/env bash
# sqlmap against the query parameters of the API's list routes (skip, limit, search, sortBy,
# descending, filterBy, filterValue, fromDate, toDate), signed in as the demo admin. A manual
# security check, not part of CI: see docs/security-testing.md.
#
#   scripts/sqlmap-lists.sh                  starts a throwaway server (fresh data folder, SQLite,
#                                            demo data; PostgreSQL if DATABASE_URL is set) and stops it
#   scripts/sqlmap-lists.sh http://host:3000 uses a running server instead
#
# SQLMAP_EMAIL / SQLMAP_PASSWORD  the account to sign in as (default: the demo admin)
# SQLMAP_ROUTES                   a grep pattern narrowing the routes, e.g. 'portal/devices$'
# SQLMAP_OPTIONS                  sqlmap's options (default: --level=1 --risk=1, every technique)
# Exits 1 if sqlmap reports an injectable parameter or the server answered a 5xx, 2 if it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v sqlmap >/dev/null || { echo "sqlmap is not installed (apt-get install -y sqlmap)" >&2; exit 2; }

email=${SQLMAP_EMAIL:-admin@demo.latchkey.dev}
password=${SQLMAP_PASSWORD:-demo-admin-pass}
options=${SQLMAP_OPTIONS:---level=1 --risk=1}
work=$(mktemp -d -t latchkey-sqlmap-XXXXXX)
base=${1:-}
server_pid=""

cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -rf "$work/data"
  fi
}
trap cleanup EXIT

if [ -z "$base" ]; then
  port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  base="http://127.0.0.1:$port"
  mkdir "$work/data"
  echo "starting a throwaway server on $base (data folder $work/data, log $work/server.log)"
  (cd apps/server && DATA_DIR="$work/data" PORT="$port" MQTT_PORT=0 DEMO_LOCKS=false LOG_LEVEL=warn \
    exec node --import tsx src/main.ts) >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 120); do
    curl -fs "$base/api3/auth/sealKey" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { echo "the server stopped:" >&2; cat "$work/server.log" >&2; exit 2; }
    sleep 0.5
  done
fi

# Sign-in bodies are sealed (NaCl box to the server's key): the shared codec does it.
sign_in() {
  BASE="$base" EMAIL="$1" PASSWORD="$2" node --import tsx --input-type=module -e '
  const { decodeBase64, newBoxKeyPair, sealPayload } = await import("@latchkey/shared");
  const { BASE, EMAIL, PASSWORD } = process.env;
  const { publicKey } = await (await fetch(`${BASE}/api3/auth/sealKey`)).json();
  const body = sealPayload({ email: EMAIL, password: PASSWORD }, decodeBase64(publicKey), newBoxKeyPair());
  const response = await fetch(`${BASE}/api3/auth/secure/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!answer.token) { console.error(`sign-in failed: ${response.status} ${JSON.stringify(answer)}`); process.exit(2); }
  console.log(answer.token);
'
}
token=$(sign_in "$email" "$password")
# Platform routes (/api3/admin/…) need platform staff: the demo's staff account.
staff_token=$(sign_in "${SQLMAP_STAFF_EMAIL:-staff@demo.latchkey.dev}" "${SQLMAP_STAFF_PASSWORD:-demo-staff-pass}")

# Every GET route of the OpenAPI document without path parameters that takes list parameters,
# as a URL with a valid value for each (the first allowed sort and filter field), and the names
# of the parameters to test. Valid values matter: sqlmap changes one parameter at a time.
node --input-type=module -e '
  const document = await (await fetch(`${process.argv[1]}/api3/openapi.json`)).json();
  const tested = ["skip", "limit", "search", "sortBy", "descending", "filterBy", "filterValue", "fromDate", "toDate"];
  for (const [path, methods] of Object.entries(document.paths)) {
    const query = (methods.get?.parameters ?? []).filter((p) => p.in === "query" && tested.includes(p.name));
    if (path.includes("{") || query.length === 0) continue;
    const value = (p) =>
      p.schema.enum?.[0] ??
      { skip: "0", limit: "5", descending: "true", fromDate: "2020-01-01T00:00:00Z", toDate: "2035-01-01T00:00:00Z" }[p.name] ??
      "a";
    const search = query.map((p) => `${p.name}=${encodeURIComponent(value(p))}`).join("&");
    console.log(`${path}?${search}\t${query.map((p) => p.name).join(",")}`);
  }
' "$base" | { grep -E "${SQLMAP_ROUTES:-.}" || true; } >"$work/routes.tsv"

echo "testing $(wc -l <"$work/routes.tsv") list routes; sqlmap output in $work/sqlmap"
found=0
while IFS=$'\t' read -r url params; do
  echo "==> $url ($params)"
  bearer=$token
  case "$url" in /api3/admin/*) bearer=$staff_token ;; esac
  # shellcheck disable=SC2086 # options are words on purpose
  sqlmap -u "$base$url" -p "$params" --headers="Authorization: Bearer $bearer" --batch \
    --output-dir="$work/sqlmap" --disable-coloring $options >"$work/last.log" 2>&1 || true
  cat "$work/last.log" >>"$work/sqlmap.log"
  if grep -E "might be injectable|is vulnerable|appears to be .* injectable|following injection point" \
    "$work/last.log"; then
    found=1
  elif grep -q "all tested parameters do not appear to be injectable" "$work/last.log"; then
    echo "    not injectable"
  else
    echo "    sqlmap did not finish this route:" && grep -E "CRITICAL|ERROR" "$work/last.log" | head -3
  fi
  # Bad input must be a 4xx: a 5xx during the run is a defect even without an injection.
  if grep -E "^5[0-9][0-9] \(" "$work/last.log"; then found=1; fi
done <"$work/routes.tsv"

if [ "$found" -eq 1 ]; then
  echo "sqlmap reported a possible injection or a 5xx: see $work/sqlmap.log" >&2
  exit 1
fi
echo "no injectable parameter found (full log: $work/sqlmap.log)"
