#!/bin/sh
# ctest's cleanup of the run's table backups in root's folder (see tests/CMakeLists.txt): the
# folders named after a loop device and made since MARK. A backup of a real disk (sda-…,
# nvme0n1-…) is never touched, nor anything older than the run.
set -eu
mark=$1
dir=/var/backups/partwise
[ -e "$mark" ] && [ -d "$dir" ] && [ -w "$dir" ] || exit 0
find "$dir" -mindepth 1 -maxdepth 1 -type d -name 'loop[0-9]*-*' -newer "$mark" -exec rm -rf {} +
