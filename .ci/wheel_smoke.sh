#!/usr/bin/env bash
# The wheel installs anywhere (issue 15 §6): build duelclub's wheel from the tracked files of this checkout,
# install it (with requirements/run.lock) into a fresh virtual environment in a temporary directory outside
# the source tree, then, from an empty working directory and with no settings but a throw-away HOME:
# `duelclub migrate`, `duelclub create-admin --password-stdin`, `duelclub serve` on a free port, and
# .ci/wheel_smoke_check.py against it (welcome and lobby pages, a static file, the admin page); then stop it.
#
# Usage: .ci/wheel_smoke.sh            (`make wheel-smoke`; CI runs it)
#        KEEP=1 .ci/wheel_smoke.sh     keeps the temporary directory (printed) for a look
# Needs only Python 3.11 and the package index (the build backend and the locked dependencies).
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/duelclub-wheel.XXXXXX")"
SERVER_PID=""
step() { echo "wheel-smoke: $*"; }

cleanup() {
  local code=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$code" != 0 ] && [ -f "$WORK/serve.log" ]; then
    echo "wheel-smoke: -- last lines of the server's log --"; tail -n 40 "$WORK/serve.log"
  fi
  if [ -n "${KEEP:-}" ]; then step "kept $WORK"; else rm -rf "$WORK"; fi
  if [ "$code" = 0 ]; then step "OK"; else step "FAILED (exit $code)"; fi
  exit "$code"
}
trap cleanup EXIT

step "work directory $WORK"
case "$WORK/" in "$SRC"/*) echo "wheel-smoke: the work directory is inside the source tree" >&2; exit 1 ;; esac

# 1. A clean copy of what a clone holds (tracked files plus new unignored ones), so that nothing lying around
#    in this checkout (var/, .venv, build/, egg-info) leaks into the wheel; the build never writes into $SRC.
mkdir "$WORK/src"
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -z --cached --others --exclude-standard | "$PYTHON" -c '
import os, sys
names = sys.stdin.buffer.read().split(b"\0")
sys.stdout.buffer.write(b"".join(n + b"\0" for n in names if n and os.path.lexists(n)))  # not deleted ones
' | tar --null -T - -cf -) | tar -xf - -C "$WORK/src"
else
  (cd "$SRC" && tar --exclude=.venv --exclude=var --exclude='*.egg-info' --exclude=build --exclude=dist -cf - .) \
    | tar -xf - -C "$WORK/src"
fi

step "building the wheel"
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --upgrade pip
"$WORK/venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$WORK/dist" "$WORK/src"
WHEEL="$(ls "$WORK"/dist/duelclub-*.whl)"
step "built $(basename "$WHEEL")"
rm -rf "$WORK/src"  # nothing of the source is left to fall back on

step "installing it with requirements/run.lock into a fresh virtual environment"
"$WORK/venv/bin/pip" install --quiet -r "$SRC/requirements/run.lock" "$WHEEL"

# 2. Run it as an operator would: an empty directory, a fresh HOME, none of this shell's duelclub settings.
mkdir "$WORK/empty" "$WORK/home"
cd "$WORK/empty"
unset DATABASE_URL REDIS_URL SECRET_KEY DATA_DIR VAR_DIR XDG_DATA_HOME TEMPLATES_DIR STATIC_DIR PYTHONPATH
export HOME="$WORK/home" BOT_WORKERS=1 LOG_LEVEL=WARNING
BIN="$WORK/venv/bin"
where="$("$BIN/python" -c 'import duelclub, os; print(os.path.dirname(duelclub.__file__))')"
case "$where" in "$WORK/venv/"*) step "duelclub imported from $where" ;;
  *) echo "wheel-smoke: duelclub imported from $where, not from the wheel" >&2; exit 1 ;; esac

"$BIN/duelclub" migrate
DATA="$HOME/.local/share/duelclub"
[ -f "$DATA/duelclub.db" ] || { echo "wheel-smoke: no database in $DATA" >&2; exit 1; }
step "migrated $DATA/duelclub.db"
printf '%s\n' "smoke-admin-password" | "$BIN/duelclub" create-admin smokeadmin --password-stdin

PORT="$("$BIN/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
step "serving on 127.0.0.1:$PORT"
"$BIN/duelclub" serve --host 127.0.0.1 --port "$PORT" >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!
"$BIN/python" "$SRC/.ci/wheel_smoke_check.py" "http://127.0.0.1:$PORT" smokeadmin smoke-admin-password

kill -TERM "$SERVER_PID"
code=0; wait "$SERVER_PID" || code=$?
SERVER_PID=""
# 143 = 128 + SIGTERM: stopped by the signal after its graceful shutdown (cli.py _serve)
[ "$code" = 143 ] || { echo "wheel-smoke: serve exited $code on SIGTERM, not 143" >&2; exit 1; }
# the secret is generated at the server's start (Settings.prepared), not by reading settings
[ -s "$DATA/secret_key" ] || { echo "wheel-smoke: serve generated no secret in $DATA" >&2; exit 1; }
[ ! -e "$DATA/bot-metrics" ] || [ -z "$(ls -A "$DATA/bot-metrics")" ] \
  || { echo "wheel-smoke: serve left its bot workers' metrics files in $DATA/bot-metrics" >&2; exit 1; }
step "server stopped (exit 143 on SIGTERM, bot workers' files removed)"
leftover="$(ls -A "$WORK/empty")"
[ -z "$leftover" ] || { echo "wheel-smoke: serve wrote into its working directory: $leftover" >&2; exit 1; }
