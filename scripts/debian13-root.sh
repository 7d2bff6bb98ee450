#!/usr/bin/env bash
# A Debian 13 (trixie, DPDK 24.11) root to build and test in, made from
# Debian's own packages with debootstrap and kept between runs on this machine
# (DEBIAN13_ROOT, default /var/cache/dpdk-forwarder/trixie; never committed).
# This repository is bind-mounted at the same path inside, with /proc, /sys and
# /dev, so a build tree made inside names the same paths as outside.
# Needs root (debootstrap, chroot, mount).
#
#   scripts/debian13-root.sh               make the root (a few minutes once; reused after)
#   scripts/debian13-root.sh CMD [ARG...]  also run CMD in it, from this repository's top
#
# Exit 3 (and one line saying why) when the root cannot be made (no network,
# no debootstrap): a caller counts that as skipped, not failed.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
root=${DEBIAN13_ROOT:-/var/cache/dpdk-forwarder/trixie}
mirror=${DEBIAN13_MIRROR:-http://deb.debian.org/debian}

[ "$(id -u)" -eq 0 ] || {
	echo "debian13-root: needs root (debootstrap, chroot, mount)" >&2
	exit 3
}
mkdir -p "$(dirname "$root")"
# one maker at a time (two CI runs on one machine); the root is shared after
exec 9>"$root.lock"
flock 9

if [ ! -f "$root/.dpdk-forwarder-ready" ]; then
	if ! command -v debootstrap >/dev/null; then
		bash scripts/apt-get-wait.sh install -y -qq debootstrap >/dev/null 2>&1 || {
			echo "debian13-root: no debootstrap and apt-get cannot install it: no Debian 13 root" >&2
			exit 3
		}
	fi
	echo "debian13-root: making $root with debootstrap (a few minutes, once)"
	rm -rf "$root.new"
	# the .debs kept beside the root: a root made again fetches none of them
	mkdir -p "$root.debs"
	if ! debootstrap --variant=minbase --cache-dir="$root.debs" trixie "$root.new" "$mirror" \
		>"$root.log" 2>&1; then
		echo "debian13-root: debootstrap trixie from $mirror failed (no network?): $(tail -n 1 "$root.log")" >&2
		rm -rf "$root.new"
		exit 3
	fi
	# dpkg without an fsync a file, and no man-db index rebuilt after each install: the
	# set-up then installs some 400 packages, most of a first run's time (the root is a
	# cache: one a crash left broken is removed, and the next run makes it again)
	echo force-unsafe-io >"$root.new/etc/dpkg/dpkg.cfg.d/dpdk-forwarder-unsafe-io"
	echo "man-db man-db/auto-update boolean false" | chroot "$root.new" debconf-set-selections
	rm -rf "$root"
	mv "$root.new" "$root"
	touch "$root/.dpdk-forwarder-ready"
fi

[ $# -gt 0 ] || exit 0

# mounts for this run only, undone on the way out (in reverse order)
mounts=()
undo() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -l "${mounts[$i]}" 2>/dev/null || true
	done
}
trap undo EXIT
trap 'exit 143' INT TERM # killed: the mounts are undone all the same
bind() { # SRC DST: recursive, and slave so undoing it never reaches the host's mounts
	mkdir -p "$2"
	mount --rbind "$1" "$2"
	mount --make-rslave "$2"
	mounts+=("$2")
}
# the root a mount point of its own: `ip netns` (the route tests) makes / rslave, which
# fails where / is a plain directory (Invalid argument)
bind "$root" "$root"
bind /proc "$root/proc"
bind /sys "$root/sys"
bind /dev "$root/dev" # with /dev/pts and /dev/shm
bind "$top" "$root$top"
# a git worktree's .git points at the main checkout's: bind that too, read-only
gitdir=$(git rev-parse --git-common-dir 2>/dev/null || true)
if [ -n "$gitdir" ] && [ -d "$gitdir" ]; then
	gitdir=$(cd "$gitdir" && pwd)
	case "$gitdir" in "$top"/*) ;; *)
		bind "$gitdir" "$root$gitdir"
		mount -o remount,bind,ro "$root$gitdir" 2>/dev/null || true
		;;
	esac
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mkdir -p "$root/dev/shm" "$root/run"
# fd 9 (the lock) closed for the command: a process it leaves behind must not hold it
env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	FWD_IN_DEBIAN13_ROOT=1 \
	chroot "$root" /bin/bash -c 'cd "$1" && shift && exec "$@"' - "$top" "$@" 9>&-
