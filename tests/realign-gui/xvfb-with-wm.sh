#!/bin/sh
# Runs a GUI test as on a desktop: a real X server (Xvfb) of the size given, and a window
# manager (openbox) that places and decorates the windows, so title bars count against the
# screen as they do for a person.
# Usage: xvfb-with-wm.sh WIDTHxHEIGHT PROGRAM [ARGS...]
set -eu
size=$1
shift
# shellcheck disable=SC2016 # the inner shell expands them
exec xvfb-run -a -s "-screen 0 ${size}x24" sh -c '
    openbox >/dev/null 2>&1 &
    wm=$!
    # The manager announces itself on the root window; windows opened before would go
    # undecorated. Bounded: at most ten seconds.
    i=0
    until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id"; do
        i=$((i + 1))
        [ "$i" -le 100 ] || { echo "xvfb-with-wm: openbox did not start" >&2; exit 1; }
        sleep 0.1
    done
    status=0
    "$@" || status=$?
    kill "$wm" 2>/dev/null || true
    exit "$status"' sh "$@"
