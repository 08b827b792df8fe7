#!/bin/bash
# Side-by-side move benchmark: partwise-cli realign vs sfdisk --move-data vs dd (direct I/O),
# on identical disk images attached as loop devices, or used as image files directly, page
# cache dropped before every run. Not a ctest test. Needs root (loop devices, drop_caches).
#
#   sudo tests/bench/run-benchmark.sh [--runs N] [--cases LIST] [--targets LIST] [--tools LIST]
#                                     [--build DIR] [--dir DIR] [--csv FILE]
#                                     [--binaries DIR]
#
# --binaries DIR times the partwise-cli and move-bench found in DIR instead of building them
# (a fixed snapshot, for a long run while the sources change).
#
# Targets (LIST is comma-separated, default loop): `loop` attaches each fresh image as a loop
# device (--direct-io=on, with its partition nodes); `image` gives every tool the image file
# itself, as for practice disks and virtual machine images. With both, every run times each
# case on a loop device and then on an image file, side by side, and rows are named CASE@TARGET.
#
# Cases (LIST is comma-separated, default all):
#   gpt34      1 GiB of random data at GPT sector 34, realigned to 2048 (overlapping, right)
#   gpt34-4k   the same moved 3 KiB, 34 -> 40 (--grain 4k)
#   gpt34-64m  the same moved to 64 MiB (--grain 64m): a shift large enough that no chunk
#              overlaps its own source, so no data needs a second copy
#   left       1 GiB at GPT sector 4001 ending at the last usable sector: moves left to 2048
#   ext4-63    2 GiB ext4, 10% used, at MBR sector 63, realigned to 2048 (used blocks only)
#   FS-PCT     2 GiB of FS (ext4, ntfs, vfat, exfat, xfs, btrfs) at MBR sector 63, PCT (10 or
#              60) per cent used by the files of ext4-63 (and 1 GiB more for 60), realigned to
#              2048: only the blocks in use are copied (libext2fs, partclone's maps). Each run
#              works on a dense copy of the image, so free space costs what it costs on a disk.
#
# Rows per case (median of N runs; the CSV has every run; --tools LIST times only some):
#   realign          partwise-cli realign --yes (journaled, verified: the default)
#   realign-noverify partwise-cli realign --yes --no-verify
#   engine-noverify  the mover alone, journaled, no verification (move-bench --no-verify):
#                    realign without the table backup, table update and fsck around it
#   engine-verify    the mover alone, journaled and verified; less engine-noverify, what
#                    verification costs, without the noise of two whole realign runs
#   engine-flush     engine-verify with every window kept safe by a flush per shift
#   engine-journal   engine-verify with every window's sources journaled first (move-bench
#                    --way flush / journal; engine-* rows print the way the mover took, and
#                    the table below puts both beside sfdisk; not in the default TOOLS:
#                    --tools engine-verify,engine-flush,engine-journal,sfdisk --cases left
#                    --targets image,loop)
#   engine-unsafe    the mover's copy loop in whole chunks, without journal or syncs
#                    (move-bench --unsafe): the baseline for the cost of crash safety
#   sfdisk           sfdisk --move-data on an identical image
#   dd               dd iflag=direct oflag=direct of the same bytes (the device's practical
#                    limit for a full copy; a plain forward copy, not overlap-safe)
#   dd-read          a direct sequential read of the same bytes (the budget for verification)
#   floor            the physical floor of a verified move, timed as one: the dd row's direct
#                    read and write of the bytes, then a direct read of them back (two reads,
#                    one write); with FS, as many bytes as realign moved, laid end to end
#   journal-write    a direct write of the same bytes into a file beside the journal: what
#                    writing every byte once more costs on the disk the journal shares
#   barrier          up to 64 shift-sized writes (at most 32 MiB) to the device, each followed
#                    by a flush, less the same writes unflushed: the cost of that many barriers
#
# The last two price what crash safety must add on one disk. Between two barriers, every byte
# whose source is overwritten must already be durable elsewhere (at its destination, written
# before the last barrier, or in the journal); at most `shift` bytes per barrier escape that. So
# a crash-safe move of N bytes by `shift` needs N / shift barriers or N bytes written once more
# (or a mix, whose cost lies between the two). The `serial` column adds the cheaper of the two,
# done one after the other, to the unsafe copy: an estimate, not a bound, since a mover may
# overlap the extra writes with the copy where the disk has bandwidth to spare.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=3
CASES=gpt34,gpt34-4k,gpt34-64m,left,ext4-63
TARGETS=loop
TOOLS="realign realign-noverify engine-noverify engine-verify engine-unsafe sfdisk dd dd-read floor journal-write barrier"
BUILD=$ROOT/build-bench
WORK=/var/tmp/partwise-bench
CSV=
BINARIES=

while [ $# -gt 0 ]; do
    case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --cases) CASES=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --tools) TOOLS=${2//,/ }; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --dir) WORK=$2; shift 2 ;;
    --csv) CSV=$2; shift 2 ;;
    --binaries) BINARIES=$2; shift 2 ;;
    -h | --help) sed -n '2,45p' "$0"; exit 0 ;;
    *) echo "run-benchmark.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
CSV=${CSV:-$WORK/results.csv}

if [ "$(id -u)" -ne 0 ]; then
    echo "run-benchmark.sh: needs root (loop devices, drop_caches)" >&2
    exit 2
fi
for tool in sfdisk losetup partx dd mkfs.ext4 e2fsck debugfs cmake; do
    command -v "$tool" >/dev/null || { echo "run-benchmark.sh: $tool is missing (.ci/install-deps)" >&2; exit 2; }
done

if [ -n "$BINARIES" ]; then
    CLI=$BINARIES/partwise-cli
    BENCH=$BINARIES/move-bench
else
    echo "== building partwise-cli and move-bench in $BUILD"
    if [ -f "$BUILD/CMakeCache.txt" ]; then cmake -S "$ROOT" -B "$BUILD" >/dev/null; else cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null; fi
    cmake --build "$BUILD" -j"$(nproc)" --target partwise-cli move-bench >/dev/null
    CLI=$BUILD/app/partwise-cli
    BENCH=$BUILD/tests/bench/move-bench
fi

mkdir -p "$WORK"
LOOPS=()
cleanup() {
    for l in "${LOOPS[@]}"; do
        partx -d "$l" 2>/dev/null || true
        losetup -d "$l" 2>/dev/null || true
    done
    LOOPS=()
}
trap cleanup EXIT

attach() { # IMAGE -> prints the loop device
    local l
    l=$(losetup -f --show --direct-io=on "$1")
    LOOPS+=("$l")
    echo "$l"
}
detach() {
    partx -d "$1" 2>/dev/null || true
    # A FUSE driver's unmount may let go of the device late; a device already gone is fine.
    losetup -d "$1" 2>/dev/null || [ ! -b "$1" ] || losetup -d "$1" || true
    local keep=()
    for l in "${LOOPS[@]}"; do [ "$l" = "$1" ] || keep+=("$l"); done
    LOOPS=("${keep[@]+"${keep[@]}"}")
}
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }
now() { date +%s.%N; }

echo "case,tool,run,seconds,bytes_copied,mib_per_s" >"$CSV"
declare -A SECONDS_OF # "case tool" -> space-separated times
declare -A BYTES_OF   # "case tool" -> bytes copied in the last run
declare -A SHIFT_OF   # case -> bytes moved by
declare -A BARRIERS_OF # case -> flushes timed by the barrier row
declare -A LEN_OF      # case -> bytes in the moved range
record() { # CASE TOOL RUN SECONDS BYTES
    local mibps
    mibps=$(awk -v b="$5" -v s="$4" 'BEGIN { printf "%.1f", b / 1048576 / s }')
    echo "$1,$2,$3,$4,$5,$mibps" >>"$CSV"
    SECONDS_OF["$1 $2"]="${SECONDS_OF["$1 $2"]:-} $4"
    BYTES_OF["$1 $2"]=$5
    printf '  %-10s %-17s run %d: %7.2f s  %8.1f MiB/s\n' "$1" "$2" "$3" "$4" "$mibps"
}
median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

RANDOM_FILE=$WORK/random-1g.bin
if [ ! -s "$RANDOM_FILE" ] || [ "$(stat -c %s "$RANDOM_FILE")" -ne 1073741824 ]; then
    echo "== generating 1 GiB of random data"
    head -c 1073741824 /dev/urandom >"$RANDOM_FILE"
fi

# Builds $WORK/CASE.img once. Sets SRC, DST, LEN (bytes), SFDISK_START, REALIGN_ARGS, FS.
prepare() {
    local name=$1 img=$WORK/$1.img
    FS=
    case $name in
    gpt34 | gpt34-4k | gpt34-64m)
        SRC=$((34 * 512)); LEN=1073741824
        case $name in
        gpt34) DST=$((2048 * 512)); SFDISK_START=2048; REALIGN_ARGS=(--grain 1m) ;;
        gpt34-4k) DST=$((40 * 512)); SFDISK_START=40; REALIGN_ARGS=(--grain 4k) ;;
        gpt34-64m) DST=$((131072 * 512)); SFDISK_START=131072; REALIGN_ARGS=(--grain 64m) ;;
        esac
        if [ ! -s "$img" ]; then
            truncate -s $((LEN + DST + 3 * 1048576)) "$img"
            printf 'label: gpt\nfirst-lba: 34\nstart=34, size=%d\n' $((LEN / 512)) |
                sfdisk -q "$img" >/dev/null
            dd if="$RANDOM_FILE" of="$img" bs=1M oflag=seek_bytes seek=$SRC conv=notrunc status=none
        fi
        ;;
    left)
        # The partition ends at the last usable sector, so it can only move down.
        LEN=1073741824; SRC=$((4001 * 512)); DST=$((2048 * 512)); SFDISK_START=2048
        REALIGN_ARGS=(--grain 1m)
        if [ ! -s "$img" ]; then
            truncate -s $((SRC + LEN + 33 * 512)) "$img"
            printf 'label: gpt\nstart=4001, size=%d\n' $((LEN / 512)) | sfdisk -q "$img" >/dev/null
            dd if="$RANDOM_FILE" of="$img" bs=1M oflag=seek_bytes seek=$SRC conv=notrunc status=none
        fi
        ;;
    ext4-63)
        LEN=$((2048 * 1048576)); SRC=$((63 * 512)); DST=$((2048 * 512)); SFDISK_START=2048
        REALIGN_ARGS=(--grain 1m); FS=ext4
        if [ ! -s "$img" ]; then
            echo "== building a 2 GiB ext4 with ~205 MiB of files at MBR sector 63"
            local tree=$WORK/ext4-tree
            rm -rf "$tree"; mkdir -p "$tree/big" "$tree/small"
            head -c $((120 * 1048576)) "$RANDOM_FILE" >"$tree/big/large.bin"
            local i
            for i in $(seq 0 1999); do
                mkdir -p "$tree/small/d$((i / 100))"
                dd if="$RANDOM_FILE" of="$tree/small/d$((i / 100))/f$i" bs=4096 \
                    skip=$((30000 + i * 11)) count=$((1 + i % 20)) status=none
            done
            truncate -s $((SRC + LEN + 8 * 1048576)) "$img"
            printf 'label: dos\nstart=63, size=%d, type=83\n' $((LEN / 512)) |
                sfdisk -q "$img" >/dev/null
            mkfs.ext4 -q -F -E offset=$SRC -d "$tree" "$img" $((LEN / 1024))k
        fi
        ;;
    ext4-10 | ext4-60 | ntfs-10 | ntfs-60 | vfat-10 | vfat-60 | exfat-10 | exfat-60 | xfs-10 | \
        xfs-60 | btrfs-10 | btrfs-60)
        LEN=$((2048 * 1048576)); SRC=$((63 * 512)); DST=$((2048 * 512)); SFDISK_START=2048
        REALIGN_ARGS=(--grain 1m); FS=${name%-*}
        [ -s "$img" ] || build_fs_image "$img" "$FS" "${name#*-}"
        ;;
    *) echo "run-benchmark.sh: unknown case $name" >&2; exit 2 ;;
    esac
}

# The files of a filesystem case: ~205 MiB (10 % of 2 GiB), plus 1 GiB of random data for 60 %.
fs_tree() { # PCT -> prints the folder
    local tree=$WORK/fs-tree-$1 i
    if [ ! -d "$tree" ]; then
        mkdir -p "$tree/big" "$tree/small"
        head -c $((120 * 1048576)) "$RANDOM_FILE" >"$tree/big/large.bin"
        for i in $(seq 0 1999); do
            mkdir -p "$tree/small/d$((i / 100))"
            dd if="$RANDOM_FILE" of="$tree/small/d$((i / 100))/f$i" bs=4096 \
                skip=$((30000 + i * 11)) count=$((1 + i % 20)) status=none
        done
        [ "$1" -lt 60 ] || cp "$RANDOM_FILE" "$tree/big/huge.bin"
    fi
    echo "$tree"
}

# Mounts the filesystem FS on DEVICE at DIR (read-only with ro): the kernel's driver, or the
# FUSE one where the kernel has none.
mount_fs() { # FS DEVICE DIR [ro]
    local opts=${4:-rw}
    case $1 in
    ntfs) ntfs-3g -o "$opts" "$2" "$3" ;;
    exfat) mount.exfat-fuse -o "$opts" "$2" "$3" ;;
    *) mount -o "$opts" "$2" "$3" ;;
    esac
}

build_fs_image() { # IMAGE FS PCT
    local img=$1 fs=$2 tree part mnt=$WORK/mnt type=83
    tree=$(fs_tree "$3")
    echo "== building a 2 GiB $fs, $3 % used, at MBR sector 63"
    case $fs in ntfs | exfat) type=7 ;; vfat) type=c ;; esac
    truncate -s $((SRC + LEN + 8 * 1048576)) "$img"
    printf 'label: dos\nstart=63, size=%d, type=%s\n' $((LEN / 512)) "$type" | sfdisk -q "$img" >/dev/null
    part=$(losetup -f --show -o "$SRC" --sizelimit "$LEN" "$img")
    LOOPS+=("$part")
    case $fs in
    ext4) mkfs.ext4 -q -F "$part" ;;
    ntfs) mkfs.ntfs -q -F -Q -p 63 -H 255 -S 63 "$part" >/dev/null ;;
    vfat) mkfs.vfat -F 32 -h 63 "$part" >/dev/null ;;
    exfat) mkfs.exfat "$part" >/dev/null ;;
    xfs) mkfs.xfs -q -f "$part" ;;
    btrfs) mkfs.btrfs -q -f "$part" >/dev/null ;;
    esac
    if [ "$fs" = vfat ]; then # no vfat driver in some kernels: mtools writes it
        MTOOLS_SKIP_CHECK=1 mcopy -s -Q -i "$part" "$tree/big" "$tree/small" ::/
    else
        mkdir -p "$mnt"
        mount_fs "$fs" "$part" "$mnt"
        cp -a "$tree/." "$mnt/"
        umount "$mnt"
        udevadm settle 2>/dev/null || true
    fi
    detach "$part"
}

# A fresh copy of the case's image, attached with its partition nodes (as a real disk has
# them) for TARGET loop; prints the loop device, or the image file for TARGET image.
fresh() { # CASE TARGET
    local dev sparse=always
    # A filesystem case is copied dense, as a real disk is: in a sparse copy, a tool that
    # copies every byte (sfdisk) would pay for allocating the holes it writes zeros into.
    [ -z "$FS" ] || [ "$1" = ext4-63 ] || sparse=never
    cp --sparse=$sparse "$WORK/$1.img" "$WORK/run.img"
    if [ "$2" = image ]; then
        echo "$WORK/run.img"
        return
    fi
    dev=$(attach "$WORK/run.img")
    partx -a "$dev" 2>/dev/null || true
    echo "$dev"
}
release() { # what fresh() printed
    [ ! -b "$1" ] || detach "$1"
}

check_result() { # CASE LOOP: the moved data is intact at DST
    local name=$1 dev=$2
    if [ -n "$FS" ] && [ "$name" != ext4-63 ]; then
        check_fs_files "$dev" "$3"
    elif [ -n "$FS" ]; then
        local part
        part=$(losetup -f --show -r -o "$DST" --sizelimit "$LEN" "$dev")
        LOOPS+=("$part")
        e2fsck -fn "$part" >/dev/null 2>&1 || { echo "  !! e2fsck failed after $3" >&2; FAILED=1; }
        rm -rf "$WORK/dump"; mkdir -p "$WORK/dump"
        debugfs -R "rdump / $WORK/dump" "$part" >/dev/null 2>&1
        if diff -rq "$WORK/ext4-tree" "$WORK/dump" 2>&1 | grep -v 'Only in .*dump: lost+found' | grep -q .; then
            echo "  !! files differ after $3" >&2
            FAILED=1
        fi
        detach "$part"
    else
        cmp -s -n "$LEN" -i "$DST:0" "$dev" "$RANDOM_FILE" ||
            { echo "  !! data differs after $3" >&2; FAILED=1; }
    fi
}

# Every file of a filesystem case read back from its new place, and its own check clean.
check_fs_files() { # DEVICE WHAT
    local part out=$WORK/dump mnt=$WORK/mnt tree
    tree=$(fs_tree "${name#*-}")
    part=$(losetup -f --show -r -o "$DST" --sizelimit "$LEN" "$1")
    LOOPS+=("$part")
    case $FS in
    ext4) e2fsck -fn "$part" ;;
    ntfs) ntfsfix -n "$part" ;;
    vfat) fsck.vfat -n "$part" ;;
    exfat) fsck.exfat -n "$part" ;;
    xfs) xfs_repair -n "$part" ;;
    btrfs) btrfs check --readonly "$part" ;;
    esac >/dev/null 2>&1 || { echo "  !! the $FS check failed after $2" >&2; FAILED=1; }
    rm -rf "$out"; mkdir -p "$out" "$mnt"
    if [ "$FS" = vfat ]; then
        MTOOLS_SKIP_CHECK=1 mcopy -s -Q -i "$part" ::/big ::/small "$out/" 2>/dev/null
    else
        mount_fs "$FS" "$part" "$mnt" ro 2>/dev/null && { cp -a "$mnt/big" "$mnt/small" "$out/"; umount "$mnt"; }
    fi
    diff -rq "$tree" "$out" >/dev/null 2>&1 || { echo "  !! files differ after $2" >&2; FAILED=1; }
    detach "$part"
}

FAILED=0
IFS=, read -r -a CASE_LIST <<<"$CASES"
IFS=, read -r -a TARGET_LIST <<<"$TARGETS"
ROWS=()
row_of() { # CASE TARGET: the name results are kept under
    if [ "$TARGETS" = loop ]; then echo "$1"; else echo "$1@$2"; fi
}
for name in "${CASE_LIST[@]}"; do
    prepare "$name"
    echo "== $name: $LEN bytes from byte $SRC to byte $DST"
    # A barrier is timed after a write of the size a shift-sized piece would have (capped).
    shift_bytes=$((DST > SRC ? DST - SRC : SRC - DST))
    BARRIER_BLOCK=$((shift_bytes < 32 * 1048576 ? shift_bytes : 32 * 1048576))
    BARRIER_COUNT=$((LEN / BARRIER_BLOCK < 64 ? LEN / BARRIER_BLOCK : 64))
    for target in "${TARGET_LIST[@]}"; do
        row=$(row_of "$name" "$target")
        ROWS+=("$row")
        SHIFT_OF[$row]=$shift_bytes
        LEN_OF[$row]=$LEN
        BARRIERS_OF[$row]=$BARRIER_COUNT
    done
    for run in $(seq 1 "$RUNS"); do
      for target in "${TARGET_LIST[@]}"; do
        row=$(row_of "$name" "$target")
        for tool in $TOOLS; do
            dev=$(fresh "$name" "$target")
            bytes=$LEN
            drop_caches
            # The journal-write row times the write alone: its data comes from the cache.
            [ "$tool" != journal-write ] ||
                head -c "${BYTES_OF["$row engine-noverify"]:-$LEN}" "$RANDOM_FILE" >/dev/null
            t0=$(now)
            case $tool in
            realign)
                "$CLI" realign --yes --journal "$WORK/realign.journal" --backup-dir "$WORK/backups" \
                    "${REALIGN_ARGS[@]}" "$dev" >"$WORK/realign.log" 2>&1 ||
                    { cat "$WORK/realign.log" >&2; FAILED=1; } ;;
            realign-noverify)
                "$CLI" realign --yes --no-verify --journal "$WORK/realign.journal" \
                    --backup-dir "$WORK/backups" "${REALIGN_ARGS[@]}" "$dev" >"$WORK/realign.log" 2>&1 ||
                    { cat "$WORK/realign.log" >&2; FAILED=1; } ;;
            engine-noverify)
                "$BENCH" "$dev" "$SRC" "$DST" "$LEN" --no-verify --journal "$WORK/engine.journal" \
                    ${FS:+--fs "$FS"} >"$WORK/engine.out" 2>&1 || { echo "  !! move-bench failed" >&2; FAILED=1; } ;;
            engine-verify)
                "$BENCH" "$dev" "$SRC" "$DST" "$LEN" --journal "$WORK/engine.journal" \
                    ${FS:+--fs "$FS"} >"$WORK/engine.out" 2>&1 || { echo "  !! move-bench failed" >&2; FAILED=1; } ;;
            engine-flush | engine-journal)
                "$BENCH" "$dev" "$SRC" "$DST" "$LEN" --way "${tool#engine-}" \
                    --journal "$WORK/engine.journal" ${FS:+--fs "$FS"} >"$WORK/engine.out" 2>&1 ||
                    { echo "  !! move-bench failed" >&2; FAILED=1; } ;;
            engine-unsafe)
                "$BENCH" "$dev" "$SRC" "$DST" "$LEN" --unsafe ${FS:+--fs "$FS"} >"$WORK/engine.out" 2>&1 ||
                    { echo "  !! move-bench failed" >&2; FAILED=1; } ;;
            sfdisk)
                echo "1 : start=$SFDISK_START" |
                    sfdisk -q --no-reread --move-data="$WORK/sfdisk.move" "$dev" -N 1 >/dev/null 2>&1 ||
                    { echo "  !! sfdisk failed" >&2; FAILED=1; } ;;
            dd)
                dd if="$dev" of="$dev" bs=4M iflag=direct,skip_bytes,count_bytes \
                    oflag=direct,seek_bytes skip="$SRC" seek="$DST" count="$LEN" \
                    conv=notrunc,fsync status=none ;;
            dd-read)
                dd if="$dev" of=/dev/null bs=4M iflag=direct,skip_bytes,count_bytes \
                    skip="$DST" count="$LEN" status=none ;;
            floor)
                fb=$LEN
                [ -z "$FS" ] || fb=${BYTES_OF["$row realign"]:-$LEN}
                dd if="$dev" of="$dev" bs=4M iflag=direct,skip_bytes,count_bytes \
                    oflag=direct,seek_bytes skip="$SRC" seek="$DST" count="$fb" \
                    conv=notrunc,fsync status=none
                dd if="$dev" of=/dev/null bs=4M iflag=direct,skip_bytes,count_bytes \
                    skip="$DST" count="$fb" status=none ;;
            journal-write)
                # As many bytes as the journaled mover copied, from the page cache (primed
                # before the clock starts), so only the write is timed.
                dd if="$RANDOM_FILE" of="$WORK/journal-write.bin" bs=4M iflag=count_bytes \
                    count="${BYTES_OF["$row engine-noverify"]:-$LEN}" oflag=direct conv=fsync \
                    status=none
                rm -f "$WORK/journal-write.bin" ;;
            barrier)
                # Shift-sized direct writes, each followed by a flush, into the copy's
                # destination area of this throwaway image; the same writes unsynced are
                # timed just before, so what is recorded is the flushes alone.
                plain_start=$(now)
                dd if=/dev/zero of="$dev" bs="$BARRIER_BLOCK" count="$BARRIER_COUNT" oflag=direct,seek_bytes \
                    seek="$DST" conv=notrunc status=none
                synced_start=$(now)
                dd if=/dev/zero of="$dev" bs="$BARRIER_BLOCK" count="$BARRIER_COUNT" oflag=direct,dsync,seek_bytes \
                    seek="$DST" conv=notrunc status=none
                FLUSH_SECONDS=$(awk -v p="$plain_start" -v s="$synced_start" -v n="$(now)" \
                    'BEGIN { d = (n - s) - (s - p); printf "%.4f", (d > 0 ? d : 0) }') ;;
            esac
            t1=$(now)
            seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
            [ "$tool" != barrier ] || seconds=$FLUSH_SECONDS
            # Bytes actually copied, where only the used blocks were.
            if [ -n "$FS" ]; then
                case $tool in
                realign*) bytes=$(sed -n 's/.*moving the \([0-9]*\) bytes in use.*/\1/p' "$WORK/realign.log" | head -1) ;;
                engine-*) bytes=$(sed -n 's/.*move-bench: [0-9]* used extents, \([0-9]*\) of.*/\1/p' "$WORK/engine.out" | head -1) ;;
                esac
                bytes=${bytes:-$LEN}
            fi
            case $tool in
            journal-write) bytes=${BYTES_OF["$row engine-noverify"]:-$LEN} ;;
            floor) bytes=$fb ;;
            barrier) bytes=$((BARRIER_COUNT * BARRIER_BLOCK)) ;;
            esac
            record "$row" "$tool" "$run" "$seconds" "$bytes"
            # The way the mover kept overlapping data safe, and why (its note lines).
            case $tool in
            engine-*) sed -n 's/^move-bench: \(Overlapping data.*\)/  '"$tool"': \1/p' "$WORK/engine.out" ;;
            realign*) sed -n 's/^ *\(Overlapping data.*\)/  '"$tool"': \1/p' "$WORK/realign.log" ;;
            esac
            case $tool in realign | realign-noverify | engine-* | sfdisk) check_result "$row" "$dev" "$tool" ;; esac
            rm -f "$WORK/realign.journal" "$WORK/engine.journal" "$WORK"/sfdisk.move*
            release "$dev"
            rm -f "$WORK/run.img"
        done
      done
    done
done

med() { echo "${SECONDS_OF["$1 $2"]:-}" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "-" }'; }
echo
echo "== medians of $RUNS runs (seconds); CSV: $CSV"
printf '%-10s %8s %8s %8s %8s %8s %8s %8s | %8s %8s %8s %8s %8s\n' case realign noverify engine unsafe sfdisk dd dd-read \
    "rl/dd" "rl/sfd" "safety" "serial" "verify"
for name in "${ROWS[@]}"; do
    r=$(med "$name" realign); n=$(med "$name" realign-noverify); u=$(med "$name" engine-unsafe)
    e=$(med "$name" engine-noverify); ev=$(med "$name" engine-verify)
    s=$(med "$name" sfdisk); d=$(med "$name" dd); rd=$(med "$name" dd-read)
    jw=$(med "$name" journal-write); b=$(med "$name" barrier)
    copied=${BYTES_OF["$name engine-noverify"]:-${LEN_OF[$name]}}
    # safety: journaled engine / unsafe engine; serial: that ratio estimated from the cost of
    # the barriers or of the second write (see the top of this file); verify: (verified - unverified engine) / a direct read of as
    # many bytes as were copied (dd-read reads the whole range: scaled to the used blocks)
    serial=$(awk -v u="$u" -v jw="$jw" -v b="$b" -v k="${BARRIERS_OF[$name]}" -v n="$copied" \
        -v sh="${SHIFT_OF[$name]}" 'BEGIN {
        barriers = int((n + sh - 1) / sh) * b / k; extra = (barriers < jw) ? barriers : jw
        if (u > 0) printf "%.2f", (u + extra) / u; else print "-" }')
    printf '%-10s %8s %8s %8s %8s %8s %8s %8s | %8s %8s %8s %8s %8s\n' "$name" "$r" "$n" "$e" "$u" "$s" "$d" "$rd" \
        "$(ratio "$n" "$d")" "$(ratio "$r" "$s")" "$(ratio "$e" "$u")" "$serial" \
        "$(awk -v v="$ev" -v e="$e" -v d="$rd" -v c="$copied" -v l="${LEN_OF[$name]}" \
            'BEGIN { r = d * c / l; if (r > 0) printf "%.2f", (v - e) / r; else print "-" }')"
done
echo "rl/dd: realign --no-verify / dd (target <= 1.10); rl/sfd: realign / sfdisk (target < 1,"
echo "ext4-63 <= 0.25); safety: journaled engine / unsafe engine, both unverified (target <= 1.10);"
echo "serial: safety estimated as unsafe plus min(N / shift flushes, journal-write), over unsafe"
echo "(the flush after a shift-sized write and a direct write of N bytes beside the journal, both"
echo "measured above, done one after the other: a mover that overlaps them can come in under it);"
echo "verify: extra time of the engine's verification / one direct read of as many bytes as it"
echo "copied (target <= 1.0)."
if [[ " $TOOLS " == *" engine-flush "* || " $TOOLS " == *" engine-journal "* ]]; then
    echo
    echo "== the two ways of keeping overlapping data safe, verified, against sfdisk (medians)"
    printf '%-14s %8s %8s %8s %8s | %8s %8s %8s\n' case timed flush journal sfdisk \
        "timed/sfd" "flush/sfd" "jrnl/sfd"
    for name in "${ROWS[@]}"; do
        t=$(med "$name" engine-verify); f=$(med "$name" engine-flush)
        j=$(med "$name" engine-journal); s=$(med "$name" sfdisk)
        printf '%-14s %8s %8s %8s %8s | %8s %8s %8s\n' "$name" "$t" "$f" "$j" "$s" \
            "$(ratio "$t" "$s")" "$(ratio "$f" "$s")" "$(ratio "$j" "$s")"
    done
    echo "timed: engine-verify, the way chosen by timing the move's own windows (see its lines"
    echo "above); flush / journal: the same move forced each way (target: timed <= 1.0 of sfdisk"
    echo "for the move to the left on an image file)."
fi
echo
echo "== the issue's goals (medians, seconds)"
printf '%-10s %8s %8s %8s %8s | %8s %8s\n' case realign noverify floor sfdisk "rl/floor" "nv/sfd"
for name in "${ROWS[@]}"; do
    r=$(med "$name" realign); n=$(med "$name" realign-noverify)
    f=$(med "$name" floor); s=$(med "$name" sfdisk)
    printf '%-10s %8s %8s %8s %8s | %8s %8s\n' "$name" "$r" "$n" "$f" "$s" "$(ratio "$r" "$f")" "$(ratio "$n" "$s")"
done
echo "rl/floor: verified realign / the physical floor of the same move measured in this run (two"
echo "direct reads and one direct write of the bytes moved; target <= 1.10); nv/sfd: realign"
echo "--no-verify / sfdisk --move-data (target <= 0.80)."
[ "$FAILED" -eq 0 ] || { echo "Some moves left wrong data (see above)." >&2; exit 1; }
