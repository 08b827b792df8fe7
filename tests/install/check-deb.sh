#!/bin/sh
# Builds the .deb with CPack, checks its metadata and, as root, installs it, runs
# /usr/bin/partwise-cli --version from it and removes it again.
# Usage: check-deb.sh BUILD_DIR VERSION. Skips (77) without root unless CI=true.
set -u
build=$1
version=$2
fail() { echo "FAIL: $*"; exit 1; }
skip() {
    echo "skipped: $*"
    [ "${CI-}" = true ] && fail "CI=true: this test must run ($*)"
    exit 77
}

command -v cpack >/dev/null 2>&1 || skip "cpack not found"
command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb not found"
[ -f "$build/CPackConfig.cmake" ] || fail "no CPackConfig.cmake (include(resources/packaging.cmake))"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    find "$work" -name '*Output.log' -exec tail -n 40 {} +
    fail "cpack -G DEB"
fi
set -- "$work"/*.deb
if [ $# -ne 1 ] || [ ! -f "$1" ]; then fail "expected one .deb, found: $*"; fi
deb=$1
echo "built $(basename "$deb")"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = partwise ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), want $version"
[ "$(field Section)" = admin ] || fail "Section: $(field Section)"
depends=$(field Depends)
echo "Depends: $depends"
for dep in fdisk parted gdisk e2fsprogs dosfstools mtools util-linux pkexec libparted; do
    case $depends in *"$dep"*) ;; *) fail "Depends lacks $dep" ;; esac
done
contents=$(dpkg-deb --contents "$deb")
for f in bin/partwise bin/partwise-cli bin/partwise-launch \
    share/applications/org.partwise.Partwise.desktop \
    share/metainfo/org.partwise.Partwise.metainfo.xml \
    share/polkit-1/actions/org.partwise.Partwise.policy \
    share/icons/hicolor/scalable/apps/org.partwise.Partwise.svg \
    share/man/man1/partwise-cli.1.gz; do
    case $contents in *" ./usr/$f"*) ;; *) fail "package lacks /usr/$f" ;; esac
done
echo "ok: package metadata and contents"

[ "$(id -u)" -eq 0 ] || skip "installing the package needs root"
preexisting=no
[ ! -e /usr/bin/partwise-cli ] || preexisting=yes
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "$deb" >"$work/apt.log" 2>&1; then
    cat "$work/apt.log"
    fail "apt-get install $deb"
fi
out=$(/usr/bin/partwise-cli --version 2>&1)
status=$?
apt-get remove -y -q partwise >"$work/remove.log" 2>&1 || { cat "$work/remove.log"; fail "apt-get remove"; }
if [ "$preexisting" = no ] && [ -e /usr/bin/partwise-cli ]; then
    fail "/usr/bin/partwise-cli left behind after removal"
fi
echo "partwise-cli --version: $out"
[ "$status" -eq 0 ] || fail "partwise-cli --version exited $status"
case $out in *partwise-cli*"$version"*) ;; *) fail "unexpected version output" ;; esac
echo "ok: installed, ran and removed"
