#!/bin/sh
# Installs the build into a temporary DESTDIR with prefix /usr and validates the desktop
# integration files with the freedesktop tools. Usage: check-install.sh BUILD_DIR
# shellcheck disable=SC2016 # single-quoted scripts for sh -c and the fake programs
set -u
build=$1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

for tool in desktop-file-validate appstreamcli xmllint groff; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "missing tool: $tool (see .ci/install-deps)"
        [ "${CI-}" = true ] && exit 1
        exit 77
    fi
done

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if ! DESTDIR=$dest cmake --install "$build" --prefix /usr >"$dest/install.log" 2>&1; then
    cat "$dest/install.log"
    echo "FAIL: cmake --install"
    exit 1
fi
usr=$dest/usr
id=org.partwise.Partwise

# Prints the output of a validator; passes only when it succeeds and prints nothing.
quiet() {
    what=$1
    shift
    if out=$("$@" 2>&1) && [ -z "$out" ]; then pass "$what"; else
        printf '%s\n' "$out"
        fail "$what"
    fi
}

for f in bin/partwise bin/partwise-cli bin/partwise-launch; do
    if [ -x "$usr/$f" ]; then pass "$f"; else fail "$f missing or not executable"; fi
done

quiet "desktop-file-validate" desktop-file-validate "$usr/share/applications/$id.desktop"

out=$(appstreamcli validate --no-net "$usr/share/metainfo/$id.metainfo.xml" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -eq 0 ] && ! printf '%s\n' "$out" | grep -q '^[EW]:'; then
    pass "appstreamcli validate"
else
    fail "appstreamcli validate"
fi
if appstreamcli validate-tree --no-net "$usr/.." >/dev/null 2>&1; then pass "validate-tree"; else
    appstreamcli validate-tree --no-net "$usr/.."
    fail "appstreamcli validate-tree"
fi

policy=$usr/share/polkit-1/actions/$id.policy
dtd=/usr/share/polkit-1/policyconfig-1.dtd
if [ -f "$dtd" ]; then
    quiet "polkit policy (DTD)" xmllint --noout --dtdvalid "$dtd" "$policy"
else
    quiet "polkit policy (well-formed)" xmllint --noout "$policy"
fi
exec_path=$(xmllint --xpath \
    'string(//annotate[@key="org.freedesktop.policykit.exec.path"])' "$policy")
if [ "$exec_path" = /usr/bin/partwise-cli ]; then pass "exec.path $exec_path"; else
    fail "exec.path is '$exec_path'"
fi

for page in partwise partwise-cli; do
    gz=$usr/share/man/man1/$page.1.gz
    if [ ! -f "$gz" ]; then fail "man page $page.1.gz missing"; continue; fi
    quiet "groff -ww $page.1" sh -c 'gzip -dc "$1" | groff -man -ww -z' sh "$gz"
    if command -v man >/dev/null 2>&1; then
        quiet "man --warnings $page.1" sh -c 'MANWIDTH=80 man --warnings -l "$1" >/dev/null' sh "$gz"
    fi
done

icons=$usr/share/icons/hicolor
if [ -f "$icons/scalable/apps/$id.svg" ]; then pass "scalable icon"; else fail "scalable icon"; fi
for size in 16 24 32 48 64 128 256; do
    png=$icons/${size}x$size/apps/$id.png
    # PNG width and height are big-endian 32-bit numbers at bytes 16 and 20.
    dims=$(od -An -tu1 -j16 -N8 "$png" 2>/dev/null | awk '{print $3 * 256 + $4 "x" $7 * 256 + $8}')
    if [ "$dims" = "${size}x$size" ]; then pass "icon ${size}x$size"; else
        fail "icon ${size}x$size: '$dims'"
    fi
done

# The launcher: POSIX sh, and it never asks for root: the window runs as the user, whatever
# it opens (the helper asks for the password when it is started for the disks).
launch=$usr/bin/partwise-launch
if command -v shellcheck >/dev/null 2>&1; then quiet "shellcheck" shellcheck -s sh "$launch"; fi
quiet "dash -n partwise-launch" sh -n "$launch"
fake=$dest/fake
mkdir -p "$fake"
chmod 755 "$dest" "$fake"
printf '#!/bin/sh\necho "$(id -u)" "$(basename "$0")" "$@"\n' >"$fake/partwise"
printf '#!/bin/sh\necho pkexec "$@"\n' >"$fake/pkexec"
chmod 755 "$fake/partwise" "$fake/pkexec"
touch "$dest/disk.img"
chmod 644 "$dest/disk.img"

expect() {
    what=$1 want=$2
    shift 2
    got=$("$@" 2>&1)
    if [ "$got" = "$want" ]; then pass "launcher: $what"; else
        fail "launcher: $what: got '$got', want '$want'"
    fi
}
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    as_user() {
        env -i PATH="$fake:/usr/bin:/bin" PARTWISE_BIN="$fake/partwise" DISPLAY=:7 \
            setpriv --reuid=65534 --regid=65534 --clear-groups "$launch" "$@"
    }
    expect "--demo runs as the user" "65534 partwise --demo" as_user --demo
    expect "image files run as the user" "65534 partwise $dest/disk.img" as_user "$dest/disk.img"
    expect "disks run as the user too" "65534 partwise /dev/sda" as_user /dev/sda
    expect "no arguments: as the user, no pkexec" "65534 partwise" as_user
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
