#!/usr/bin/env bash
# GNU Backgammon for the match analysis: Debian's package (gnubg, GPL), run by the workers as its own program.
# `make run` calls this; without it the site runs and says the matches are not analysed.
set -uo pipefail
[ -x "${GNUBG:-/usr/games/gnubg}" ] && exit 0
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
echo "installing GNU Backgammon (gnubg) for the match analysis ..." >&2
if ! { as_root apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq gnubg >/dev/null; }; then
  echo "could not install gnubg (apt-get install gnubg as root): matches will not be analysed" >&2
fi
exit 0
