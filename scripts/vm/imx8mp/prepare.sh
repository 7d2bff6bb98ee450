#!/usr/bin/env bash
# Build (or reuse) the imx8mp guest in $VM_CACHE from Debian packages only:
#   kernel Image + freescale/imx8mp-evk.dtb + the few modules the guest loads
#   (linux-image-<abi>-arm64), uio_pdrv_genirq.ko built for that kernel
#   (Debian does not build it: linux-source-6.1 + linux-headers + linux-kbuild),
#   busybox-static:arm64, the arm64 DPDK runtime closure, and dpdk-forwarder
#   cross-built from this tree (FEC PMD linked in) against arm64 libdpdk-dev.
# Every step leaves a stamp and is skipped when its stamp is there, so a second
# run only checks. Progress goes to stderr. Nothing on the host changes beyond
# the packages scripts/vm/imx8mp/setup-host.sh installs: arm64 packages are
# fetched with a private apt state under $VM_CACHE/apt (no dpkg
# --add-architecture) and only extracted.
#
#   VM_CACHE=build/vm/imx8mp bash scripts/vm/imx8mp/prepare.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
C=${VM_CACHE:-$top/build/vm/imx8mp}
mkdir -p "$C"
C=$(cd "$C" && pwd)
log() { echo "imx8mp: $*" >&2; }
stamp() { [ -f "$C/.$1.done" ]; }
done_() { touch "$C/.$1.done"; }

bash "$here/setup-host.sh"

# --- private apt state: arm64 (and amd64 for linux-kbuild) -------------------
A=$C/apt
APT=(-o Dir::State="$A/state" -o Dir::State::status="$A/status" -o Dir::Cache="$A/cache"
	-o Dir::Etc::SourceParts="$A/sources.list.d" -o Dir::Etc::SourceList="$A/sources.list"
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o APT::Architectures::=amd64
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root -o Acquire::Languages=none -q)
if ! stamp apt; then
	log "apt: private arm64 package lists"
	mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$A/sources.list.d"
	: >"$A/status"
	: >"$A/sources.list"
	# The host's binary sources (deb-src stanzas and entries are left out).
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		awk -v RS= -v ORS='\n\n' '/Types: deb\n|Types: deb$/' \
			/etc/apt/sources.list.d/debian.sources >"$A/sources.list.d/debian.sources"
	fi
	grep -hs '^deb ' /etc/apt/sources.list >>"$A/sources.list" || true
	apt-get "${APT[@]}" update >/dev/null
	done_ apt
fi
aptc() { apt-cache "${APT[@]}" "$@"; }
# Download PKG... (arch-qualified names) into $C/debs, once each.
fetch() {
	mkdir -p "$C/debs"
	local need=() p
	for p in "$@"; do
		ls "$C/debs/${p%%:*}"_*"_${p##*:}.deb" >/dev/null 2>&1 ||
			ls "$C/debs/${p%%:*}"_*_all.deb >/dev/null 2>&1 || need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	log "download ${#need[@]} package(s): ${need[*]:0:6}..."
	(cd "$C/debs" && apt-get "${APT[@]}" download "${need[@]}" >/dev/null)
}
deb_of() { ls "$C/debs/$1"_*.deb | head -n 1; }
L=usr/lib/aarch64-linux-gnu
so_find() {
	local d
	for d in "$S/$L" "$S/lib/aarch64-linux-gnu"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	return 1
}
# The arm64 package of a soname: the one holding it on the host for amd64
# (same names), librte_* by name.
so_pkg() {
	local pkg
	pkg=$(dpkg -S "/usr/lib/x86_64-linux-gnu/$1" "/lib/x86_64-linux-gnu/$1" 2>/dev/null |
		head -n 1 | cut -d: -f1)
	if [ -z "$pkg" ]; then
		case "$1" in
		librte_*.so.23) pkg=$(echo "${1%.so.23}" | tr _ -)23 ;;
		*) log "no package found for $1"; return 1 ;;
		esac
	fi
	echo "$pkg"
}
# Every library FILE... needs, transitively (DT_NEEDED), one path a line;
# what the sysroot lacks is downloaded one level at a time in one apt call.
closure() {
	local level=("$@") next so p f missing pkgs
	declare -A seen=()
	while [ ${#level[@]} -gt 0 ]; do
		next=()
		missing=()
		for f in "${level[@]}"; do
			for so in $(aarch64-linux-gnu-readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				[ -n "${seen[$so]:-}" ] && continue
				seen[$so]=1
				if p=$(so_find "$so"); then next+=("$p"); else missing+=("$so"); fi
			done
		done
		if [ ${#missing[@]} -gt 0 ]; then
			pkgs=()
			for so in "${missing[@]}"; do pkgs+=("$(so_pkg "$so"):arm64") || return 1; done
			fetch "${pkgs[@]}" >&2
			for p in "${pkgs[@]}"; do dpkg-deb -x "$(deb_of "${p%:arm64}")" "$S"; done
			for so in "${missing[@]}"; do
				p=$(so_find "$so") || { log "no $so in ${pkgs[*]}"; return 1; }
				next+=("$p")
			done
		fi
		for p in "${next[@]}"; do echo "$p"; done
		level=("${next[@]}")
	done
}

# --- kernel -----------------------------------------------------------------
if ! stamp kernel; then
	abi=$(aptc depends linux-image-arm64:arm64 | sed -n 's/.*Depends: linux-image-\(6\.1\.0-[0-9]*-arm64\).*/\1/p' | head -n 1)
	[ -n "$abi" ] || { log "cannot find the arm64 kernel ABI"; exit 1; }
	common=${abi%-arm64}-common
	log "kernel $abi"
	fetch "linux-image-$abi:arm64" "linux-headers-$abi:arm64" "linux-headers-$common:all" \
		linux-kbuild-6.1:amd64 linux-source-6.1:all
	rm -rf "$C/k" && mkdir -p "$C/k"
	dpkg-deb -x "$(deb_of "linux-image-$abi")" "$C/k/img"
	cp "$C/k/img/boot/vmlinuz-$abi" "$C/Image"
	cp "$C/k/img/usr/lib/linux-image-$abi/freescale/imx8mp-evk.dtb" "$C/imx8mp-evk.dtb"
	mkdir -p "$C/modules"
	for m in drivers/uio/uio.ko drivers/nvmem/nvmem-imx-ocotp.ko; do
		cp "$C/k/img/lib/modules/$abi/kernel/$m" "$C/modules/"
	done
	rm -rf "$C/k/img"
	echo "$abi" >"$C/abi"
	done_ kernel
fi
abi=$(cat "$C/abi")

# --- uio_pdrv_genirq.ko, built out of tree for that kernel ------------------
if ! stamp uio; then
	log "uio_pdrv_genirq.ko for $abi (linux-source-6.1 + headers)"
	K=$C/k/hdr
	rm -rf "$K" "$C/k/uiomod" && mkdir -p "$K" "$C/k/uiomod"
	for p in "linux-headers-$abi" "linux-headers-${abi%-arm64}-common" linux-kbuild-6.1; do
		dpkg-deb -x "$(deb_of "$p")" "$K"
	done
	kh=$K/usr/src/linux-headers-$abi
	sed -i "s#include /usr/src/#include $K/usr/src/#" "$kh/Makefile"
	rm -f "$kh/scripts" "$kh/tools"
	ln -s "$K/usr/lib/linux-kbuild-6.1/scripts" "$kh/scripts"
	ln -s "$K/usr/lib/linux-kbuild-6.1/tools" "$kh/tools"
	dpkg-deb --fsys-tarfile "$(deb_of linux-source-6.1)" |
		tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJO linux-source-6.1/drivers/uio/uio_pdrv_genirq.c >"$C/k/uiomod/uio_pdrv_genirq.c"
	echo 'obj-m := uio_pdrv_genirq.o' >"$C/k/uiomod/Kbuild"
	make -s -C "$kh" M="$C/k/uiomod" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		DEB_BUILD_ARCH=amd64 DEB_HOST_ARCH=arm64 DEB_HOST_GNU_TYPE=aarch64-linux-gnu modules >&2
	aarch64-linux-gnu-strip --strip-debug -o "$C/modules/uio_pdrv_genirq.ko" \
		"$C/k/uiomod/uio_pdrv_genirq.ko"
	rm -rf "$K"
	done_ uio
fi

# --- arm64 sysroot: libdpdk-dev and what the forwarder links ----------------
S=$C/sysroot
# (the stamp's name changes with what the sysroot must hold: libmnl came with issue 18)
if ! stamp sysroot-mnl; then
	log "arm64 sysroot (libdpdk-dev and its libraries, libbsd, libnuma, libpcap, libmnl, busybox)"
	ver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
	base=(libdpdk-dev libbsd-dev libnuma-dev libpcap0.8-dev busybox-static libc6 libgcc-s1
		libbsd0 libnuma1 libpcap0.8 libmd0 librte-mempool-ring23 libmnl-dev libmnl0)
	fetch "${base[@]/%/:arm64}"
	rm -rf "$S" && mkdir -p "$S"
	for d in "${base[@]}"; do
		dpkg-deb -x "$(deb_of "$d")" "$S"
	done
	adeb=$(deb_of libdpdk-dev)
	case "$adeb" in *"_${ver#*:}_arm64.deb") ;;
	*) log "warning: $(basename "$adeb") is not the host's libdpdk-dev $ver" ;; esac
	# The libraries libdpdk.pc links, and what they need, so the cross linker
	# resolves every symbol.
	rte=()
	for l in $(sed -n 's/^Libs: //p' "$S/$L/pkgconfig/libdpdk-libs.pc"); do
		case "$l" in -lrte_*) rte+=("lib$(echo "${l#-l}" | tr _ -)23:arm64") ;; esac
	done
	fetch "${rte[@]}"
	for p in "${rte[@]}"; do dpkg-deb -x "$(deb_of "${p%:arm64}")" "$S"; done
	closure "$S/$L"/librte_*.so.23 "$S/$L/libnuma.so.1" "$S/$L/libpcap.so.0.8" \
		"$S/$L/libbsd.so.0" "$S/$L/libmnl.so.0" >/dev/null
	done_ sysroot-mnl
fi

# libbsd-dev's libbsd.so is a linker script naming host paths: the library
# itself serves the cross linker.
if [ ! -L "$S/$L/libbsd.so" ]; then
	rm -f "$S/$L/libbsd.so"
	ln -s libbsd.so.0 "$S/$L/libbsd.so"
fi

# A libdpdk.pc for the cross build: the arm64 package's own flags and libraries
# (libdpdk-libs.pc), without its Requires.private chain of -dev packages the
# forwarder does not link.
P=$C/pkgconfig
mkdir -p "$P"
libs_pc=$S/usr/lib/aarch64-linux-gnu/pkgconfig/libdpdk-libs.pc
{
	echo "prefix=$S/usr"
	echo 'includedir=${prefix}/include/dpdk'
	echo 'libdir=${prefix}/lib/aarch64-linux-gnu'
	echo 'Name: DPDK'
	echo 'Description: DPDK (arm64, for the imx8mp guest)'
	sed -n 's/^Version: /Version: /p' "$libs_pc"
	sed -n 's/^Libs: /Libs: -L${libdir} /p' "$libs_pc" | sed 's/$/ -lbsd/'
	sed -n 's/^Cflags: /Cflags: -I${prefix}\/include /p' "$libs_pc"
} >"$P/libdpdk.pc"
# libmnl's own .pc names /usr: the same, pointed into the sysroot
sed "s|^prefix=.*|prefix=$S/usr|" "$S/$L/pkgconfig/libmnl.pc" >"$P/libmnl.pc"

# --- dpdk-forwarder cross-built for arm64 -----------------------------------
B=$C/fwd-build
cat >"$C/cross.ini" <<EOF
[binaries]
c = 'aarch64-linux-gnu-gcc'
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'

[properties]
pkg_config_libdir = ['$P']

[built-in options]
c_args = ['-I$S/usr/include', '-I$S/usr/include/aarch64-linux-gnu']
c_link_args = ['-L$S/usr/lib/aarch64-linux-gnu', '-L$S/lib/aarch64-linux-gnu', '-Wl,-rpath-link,$S/usr/lib/aarch64-linux-gnu', '-Wl,-rpath-link,$S/lib/aarch64-linux-gnu']

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'cortex-a53'
endian = 'little'
EOF
if [ ! -f "$B/build.ninja" ]; then
	log "meson setup (cross, arm64)"
	rm -rf "$B"
	meson setup "$B" "$top" --cross-file "$C/cross.ini" -Dtests=false >"$C/meson-setup.log" 2>&1 || {
		tail -n 30 "$C/meson-setup.log" >&2
		exit 1
	}
fi
# The driver-SDK headers: architecture independent, the host build's copy or
# the same script the host build uses.
if [ -f "$top/build/dpdk-sdk/include/.version" ] && [ ! -f "$B/dpdk-sdk/include/.version" ]; then
	mkdir -p "$B/dpdk-sdk"
	cp -a "$top/build/dpdk-sdk/include" "$B/dpdk-sdk/"
fi
bash "$top/scripts/dpdk-sdk-headers.sh" "$B/dpdk-sdk/include" >/dev/null
log "ninja (cross): dpdk-forwarder"
ninja -C "$B" app/dpdk-forwarder >"$C/ninja.log" 2>&1 || {
	tail -n 30 "$C/ninja.log" >&2
	exit 1
}

# --- guest root: busybox, modules, forwarder + its arm64 closure ------------
R=$C/root
if [ ! -f "$C/initrd.gz" ] || [ "$B/app/dpdk-forwarder" -nt "$C/initrd.gz" ] ||
	[ "$here/prepare.sh" -nt "$C/initrd.gz" ] || [ "$here/init" -nt "$C/initrd.gz" ]; then
	log "initramfs"
	rm -rf "$R" && mkdir -p "$R"/{bin,dev,proc,sys,tmp,run,var,lib/modules,usr/bin}
	ln -s ../run "$R/var/run"
	cp "$S/bin/busybox" "$R/bin/busybox"
	cp "$C"/modules/*.ko "$R/lib/modules/"
	cp "$here/init" "$R/init" && chmod +x "$R/init"
	aarch64-linux-gnu-strip -o "$R/usr/bin/dpdk-forwarder" "$B/app/dpdk-forwarder"
	# The forwarder's closure and the mempool driver EAL loads from its
	# plugin directory (the only plugin: every file there gets dlopened).
	mkdir -p "$R/$L/dpdk/pmds-23.0" "$R/lib/aarch64-linux-gnu"
	cp -L "$S/lib/ld-linux-aarch64.so.1" "$R/lib/"
	cp -L "$S/$L/librte_mempool_ring.so.23" "$R/$L/dpdk/pmds-23.0/librte_mempool_ring.so.23.0"
	for p in $(closure "$R/usr/bin/dpdk-forwarder" "$S/$L/librte_mempool_ring.so.23"); do
		cp -L "$p" "$R/$L/"
	done
	# glibc dlopens it for pthread_cancel (EAL cancels its threads at exit).
	cp -L "$S/lib/aarch64-linux-gnu/libgcc_s.so.1" "$R/$L/"
	(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$C/initrd.gz.tmp"
	mv "$C/initrd.gz.tmp" "$C/initrd.gz"
	log "initramfs $(du -h "$C/initrd.gz" | cut -f1), $(ls "$R/$L" | wc -l) libraries"
fi
log "guest ready in $C"
