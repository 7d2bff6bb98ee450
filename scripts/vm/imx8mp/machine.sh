# shellcheck shell=bash
# The imx8mp machine of scripts/vm-run.sh (docs: scripts/vm/imx8mp/README.md):
# QEMU's i.MX 8M Plus EVK (-M imx8mp-evk, TCG) with its one ENET port, a
# Debian arm64 kernel, and the ENET handed to userspace through the stock
# uio_pdrv_genirq driver (driver_override), driven by net_fec,backend=uio.
# Sourced with VM_CACHE (persistent, default build/vm/imx8mp) and VM_WORK
# (this run's temp dir) set; VM_PORT_BASE is the first UDP port of the netdev.
#
# Knobs (environment):
#   VM_FEC_DEVARGS  net_fec devargs (default backend=uio,stats=sw,shift16=0:
#                   QEMU counts the SHIFT16 pad against MAX_FL, see
#                   docs/fec_pmd.md; add
#                   bd=legacy for 8-byte descriptors)
#   VM_EAL_EXTRA    more EAL options (e.g. --log-level=pmd.net.fec:debug)
#   VM_QEMU_TIMEOUT seconds QEMU may run at most (default 600)
#   VM_DUMP         a pcap file QEMU's filter-dump writes both directions into
#   VM_GUEST_EXTRA  more sh commands the guest runs at the end of its set-up,
#                   before the forwarder starts (a host file they name is
#                   copied in at the same path); e.g. a sampler started in the
#                   background (tests/vm/imx8mp_e2e.py, case idle)
#   VM_IMX_LAYOUT   stock (default) or nxp: the UIO layout of NXP's imx-fec-uio
#                   (map0 registers, map1 a descriptor block with its bus
#                   address), made from stock parts: the device tree gives the
#                   ENET a second reg (the last MiB of RAM, kept from Linux by
#                   mem=1023M) and names the UIO device imx-fec-uio, so
#                   uio_pdrv_genirq exports both maps as NXP's module does

VM_IMX_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${VM_CACHE:=$VM_IMX_DIR/../../../build/vm/imx8mp}"

# Build or reuse the guest (kernel, dtb, modules, uio_pdrv_genirq.ko, initramfs
# with the cross-built forwarder): idempotent, progress on stderr.
vm_prepare() {
	VM_CACHE=$VM_CACHE bash "$VM_IMX_DIR/prepare.sh"
}

# One ENET on the SoC model.
vm_ports() {
	echo 1
}

# EAL options in the guest: 2 lcores (main + one worker), hugepages with
# physical addresses (the ENET DMAs to 32-bit bus addresses; RAM is at
# 0x40000000-0x7fffffff with -m 1G, so every page is below 4 GiB).
vm_eal() {
	echo "-l 0,1 -n 1 --iova-mode=pa --file-prefix vm --no-pci" \
		"--vdev net_fec0,${VM_FEC_DEVARGS:-backend=uio,stats=sw,shift16=0} ${VM_EAL_EXTRA:-}"
}

# Guest set-up (busybox sh): the kernel's fec driver is never loaded; the ENET
# goes to uio_pdrv_genirq by driver_override (the UIO device is named after
# the DT node, "ethernet"). nvmem-imx-ocotp is the ENET's supplier (MAC
# address cell): without it fw_devlink defers every probe of the ENET.
vm_guest_setup() {
	cat <<'GUEST'
insmod /lib/modules/nvmem-imx-ocotp.ko
insmod /lib/modules/uio.ko
echo uio_pdrv_genirq > /sys/bus/platform/devices/30be0000.ethernet/driver_override
insmod /lib/modules/uio_pdrv_genirq.ko
i=0; while [ ! -e /dev/uio0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -e /dev/uio0 ] || { echo "imx8mp guest: no /dev/uio0"; cat /sys/kernel/debug/devices_deferred 2>/dev/null; }
echo "imx8mp guest: uio0 $(cat /sys/class/uio/uio0/name) map0 $(cat /sys/class/uio/uio0/maps/map0/addr) $(cat /sys/class/uio/uio0/maps/map0/size)"
[ -e /sys/class/uio/uio0/maps/map1 ] && echo "imx8mp guest: uio0 map1 $(cat /sys/class/uio/uio0/maps/map1/addr) $(cat /sys/class/uio/uio0/maps/map1/size)"
echo 64 > /proc/sys/vm/nr_hugepages
GUEST
	if [ -n "${VM_GUEST_EXTRA:-}" ]; then echo "$VM_GUEST_EXTRA"; fi
}

vm_guest_bin() {
	echo /usr/bin/dpdk-forwarder
}

# exec QEMU with GUEST_SCRIPT as /guest.sh: a second cpio appended to the
# cached initramfs (the kernel unpacks concatenated archives in order).
vm_qemu() {
	local script=$1 d=$VM_WORK/guest-cpio base=${VM_PORT_BASE:-5555}
	rm -rf "$d" && mkdir -p "$d"
	cp "$script" "$d/guest.sh"
	# The guest sees no host file system: host files the script names (a
	# --config, a --cmdline-file, ...) go in at the same path.
	local f
	for f in $(grep -o '/[A-Za-z0-9._+/-]*' "$script" | sort -u); do
		case "$f" in /proc/* | /sys/* | /dev/* | /usr/* | /lib/* | /bin/*) continue ;; esac
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 16777216 ] || continue
		mkdir -p "$d$(dirname "$f")"
		cp "$f" "$d$f"
	done
	(cd "$d" && find . -mindepth 1 | sed 's#^\./##' | cpio -o -H newc --quiet | gzip -1) \
		>"$VM_WORK/guest.cpio.gz"
	cat "$VM_CACHE/initrd.gz" "$VM_WORK/guest.cpio.gz" >"$VM_WORK/initrd.gz"
	local dump=() dtb=$VM_CACHE/imx8mp-evk.dtb append='console=ttymxc1,115200 rdinit=/init loglevel=4'
	[ -n "${VM_DUMP:-}" ] && dump=(-object "filter-dump,id=d0,netdev=n0,file=$VM_DUMP")
	case "${VM_IMX_LAYOUT:-stock}" in
	stock) ;;
	nxp)
		# RAM is 0x40000000-0x7fffffff (-m 1G): its last MiB becomes the ENET's
		# second reg; /soc@0's ranges must cover it for the address to translate
		local e=/soc@0/bus@30800000/ethernet@30be0000
		dtb=$VM_WORK/imx8mp-evk-nxp.dtb
		cp "$VM_CACHE/imx8mp-evk.dtb" "$dtb"
		fdtput -t x "$dtb" $e reg 30be0000 10000 7ff00000 100000
		fdtput -t s "$dtb" $e linux,uio-name imx-fec-uio
		fdtput -t x "$dtb" /soc@0 ranges 0 0 0 3e000000 7ff00000 0 7ff00000 100000
		append="$append mem=1023M"
		;;
	*)
		echo "imx8mp: VM_IMX_LAYOUT '${VM_IMX_LAYOUT}': stock or nxp" >&2
		exit 2
		;;
	esac
	exec timeout -k 5 "${VM_QEMU_TIMEOUT:-600}" qemu-system-aarch64 -M imx8mp-evk -smp 2 -m 1G \
		-display none -serial null -serial stdio -monitor none \
		-kernel "$VM_CACHE/Image" -dtb "$dtb" -initrd "$VM_WORK/initrd.gz" \
		-append "$append" \
		-netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$base,remote.type=inet,remote.host=127.0.0.1,remote.port=$((base + 1))" \
		-net nic,netdev=n0 "${dump[@]}"
}
