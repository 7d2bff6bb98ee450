#!/usr/bin/env bash
# Host packages the imx8mp guest needs, installed only when missing (safe to
# re-run): QEMU 10 from Debian's bookworm-backports (bookworm's own 7.2 has no
# imx8mp-evk), the aarch64 cross compiler (forwarder and uio_pdrv_genirq.ko are
# cross-built), kmod (depmod), cpio. The bookworm-backports sources entry is
# added only when no entry for that suite exists (scripts/setup.sh --vm adds
# the same file; whichever runs first wins, the other sees it and does nothing).
set -euo pipefail
# waits for another apt-get instead of failing on its lock
_apt_wait=$(cd "$(dirname "$0")/../.." && pwd)/apt-get-wait.sh

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross kmod cpio xz-utils file)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
qemu_missing=0
case "$(dpkg-query -W -f='${Version}' qemu-system-arm 2>/dev/null || true)" in
1:1[0-9].*) ;;
*) qemu_missing=1 ;;
esac

bp_list=/etc/apt/sources.list.d/bookworm-backports.sources
if [ $qemu_missing = 1 ] &&
	! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "imx8mp setup: adding $bp_list" >&2
	printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
		'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
		$sudo tee "$bp_list" >/dev/null
fi
if [ ${#missing[@]} -gt 0 ] || [ $qemu_missing = 1 ]; then
	$sudo bash "$_apt_wait" update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "imx8mp setup: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive $sudo bash "$_apt_wait" install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
if [ $qemu_missing = 1 ]; then
	echo "imx8mp setup: installing qemu-system-arm from bookworm-backports" >&2
	DEBIAN_FRONTEND=noninteractive $sudo bash "$_apt_wait" install -y -qq --no-install-recommends \
		-t bookworm-backports qemu-system-arm >/dev/null
fi
