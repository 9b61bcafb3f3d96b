#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance, server mode,
# active scenarios) against a live `python -m env_server.cli serve` on a free loopback port,
# then print one row per scenario: pass, FAIL, or n/a with the reason (see
# bench/conformance_report.py). Exits 1 when an applicable scenario fails.
#
#   bench/conformance.sh                  # PYTHON=... picks the interpreter (default: python)
#   bench/conformance.sh --suite all      # arguments go to `conformance server` (pending ones too)
#
# The suite needs Node >= 22. It and, when the system node is older, a Node 22 from npm's
# `node` package are installed into $TOOLENV_NODE_CACHE (default ~/.cache/toolenv/node),
# never into the repository. Results and the server log stay in a temp dir (printed).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python}
CACHE=${TOOLENV_NODE_CACHE:-$HOME/.cache/toolenv/node}
SUITE_VERSION=${CONFORMANCE_VERSION:-0.1.16}
SUITE="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"

node_major() { "$1" --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/'; }

mkdir -p "$CACHE"
NODE=$(command -v node || true)
if [[ -z "$NODE" || $(node_major "$NODE") -lt 22 ]]; then
    NODE="$CACHE/node_modules/.bin/node"
    if [[ ! -x "$NODE" ]]; then
        echo "system node is older than 22: installing node@22 from npm into $CACHE" >&2
        npm install --prefix "$CACHE" --no-audit --no-fund --silent node@22 >&2
    fi
fi
if ! grep -q "\"version\": \"$SUITE_VERSION\"" "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null; then
    echo "installing @modelcontextprotocol/conformance@$SUITE_VERSION into $CACHE" >&2
    npm install --prefix "$CACHE" --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/toolenv-conformance.XXXXXX")
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT/mcp"
(cd "$ROOT" && exec "$PYTHON" -m env_server.cli serve --port "$PORT" --db "$WORK/toolenv.duckdb" \
    --log-level warning >"$WORK/server.log" 2>&1) &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT

for _ in $(seq 120); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/v1/health" && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 2; }
    sleep 0.5
done

echo "node $("$NODE" --version), conformance $SUITE_VERSION, server $URL, results in $WORK" >&2
# The suite's own exit status counts the not-applicable scenarios as failures; the report decides.
"$NODE" "$SUITE" server --url "$URL" -o "$WORK/results" "$@" >"$WORK/suite.log" 2>&1 || true
cd "$ROOT" && "$PYTHON" bench/conformance_report.py "$URL" "$WORK/results"
