# shellcheck shell=bash
# The igb machine for scripts/vm-run.sh: QEMU's x86_64 q35 with an emulated
# Intel IOMMU and two 82576 (igb) ports, or two 82574L (e1000e) ports with
# VM_NIC=e1000e. Sourced with VM_CACHE, VM_WORK and VM_PORT_BASE set; the
# hooks are described in scripts/vm/README.md.
#
# The guest is a Debian kernel (linux-image-*-amd64, extracted, not installed),
# a busybox initramfs that mounts the host's / read-only over virtio-9p and
# chroots into it: the guest runs the host-built build/app/dpdk-forwarder with
# the host's DPDK libraries, so nothing is cross-built. The NICs are bound to
# vfio-pci behind the emulated IOMMU (Debian's kernels have no vfio no-IOMMU
# mode), so EAL picks IOVA as VA.
#
# Knobs (environment): VM_NIC=igb|e1000e, VM_CPUS (guest vCPUs = EAL lcores
# 0..VM_CPUS-1, default 2: main + one worker; 3 for two workers), VM_MEM_MB
# (2048), VM_HUGEPAGES (2 MiB pages, 256), VM_QEMU_TIMEOUT (s, 600),
# VM_PMDS (the DPDK driver plugins the guest's EAL loads: "bus_pci bus_vdev
# mempool_ring net_e1000"; add e.g. net_pcap to use --vdev net_pcap0,...).

VM_NIC=${VM_NIC:-igb}
VM_CPUS=${VM_CPUS:-2}
VM_MEM_MB=${VM_MEM_MB:-2048}
VM_HUGEPAGES=${VM_HUGEPAGES:-256}
VM_QEMU_TIMEOUT=${VM_QEMU_TIMEOUT:-600}
VM_PMDS=${VM_PMDS:-bus_pci bus_vdev mempool_ring net_e1000}

_igb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)

# PCI slots: igb's SR-IOV VFs claim the slots after each PF (3.0 + 4.0 fails
# with "slot 20 function 0 not available for igbvf"), so 3 and 5.
_igb_slots() {
	case "$VM_NIC" in
	igb) echo "03 05" ;;
	e1000e) echo "06 07" ;;
	*)
		echo "vm igb: VM_NIC must be igb or e1000e, not '$VM_NIC'" >&2
		return 1
		;;
	esac
}

_igb_kver() { cat "$VM_CACHE/kver"; }

vm_ports() { echo 2; }

vm_guest_bin() { echo "$VM_FWD_BIN"; }

# the guest sees the host's / read-only, /tmp included (files named in the
# forwarder's options are found there); its own files go to a tmpfs
vm_guest_tmp() { echo /run/vm; }

vm_eal() {
	local s args=""
	for s in $(_igb_slots); do
		args="$args -a 0000:00:$s.0"
	done
	echo "-l 0-$((VM_CPUS - 1)) -n 1$args --file-prefix vm-fwd --huge-dir /dev/hugepages"
}

vm_guest_setup() {
	local s
	# kmod from the host root; the module tree is the cached guest kernel's
	echo "modprobe -d '$VM_CACHE/kroot' -S '$(_igb_kver)' vfio-pci || exit 1"
	echo "echo $VM_HUGEPAGES > /proc/sys/vm/nr_hugepages"
	# EAL dlopens every plugin of the PMD directory: 128 libraries over 9p
	# under TCG are 30 s. Show it only the drivers this machine uses.
	local d pmd
	d=$(ls -d /usr/lib/*/dpdk/pmds-* 2>/dev/null | head -1)
	if [ -n "$d" ]; then
		echo "mkdir -p /run/vm-pmds"
		for pmd in $VM_PMDS; do
			echo "cp -a $d/librte_$pmd.so* /run/vm-pmds/ || exit 1"
		done
		echo "mount --bind /run/vm-pmds $d || exit 1"
	fi
	# dpdk-devbind.py takes about 80 s per device under TCG; sysfs takes 0.5 s
	for s in $(_igb_slots); do
		echo "echo vfio-pci > /sys/bus/pci/devices/0000:00:$s.0/driver_override"
		echo "echo 0000:00:$s.0 > /sys/bus/pci/drivers_probe"
		echo "[ -e /sys/bus/pci/drivers/vfio-pci/0000:00:$s.0 ] || { echo 'vm: 0000:00:$s.0 not bound to vfio-pci'; exit 1; }"
	done
}

# The initramfs: busybox, the modules 9p needs (with their dependencies, in
# modprobe's order) and an /init that mounts the host root and runs the guest
# script named on the kernel command line.
_igb_initrd() {
	local kver=$1 ird=$VM_CACHE/initrd.d m
	rm -rf "$ird"
	mkdir -p "$ird"/{bin,dev,proc,sys,newroot,mod}
	cp /bin/busybox "$ird/bin/busybox"
	ln -s busybox "$ird/bin/sh"
	: >"$ird/mod/order"
	for m in $(modprobe -d "$VM_CACHE/kroot" -S "$kver" --show-depends -a virtio_pci 9pnet_virtio 9p |
		awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++'); do
		cp "$m" "$ird/mod/"
		echo "${m##*/}" >>"$ird/mod/order"
	done
	cp "$_igb_root/scripts/vm/igb/init.sh" "$ird/init"
	chmod +x "$ird/init"
	(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$VM_CACHE/initrd.gz.tmp"
	mv "$VM_CACHE/initrd.gz.tmp" "$VM_CACHE/initrd.gz"
	rm -rf "$ird"
}

vm_prepare() {
	local pkg kver deb stamp
	command -v qemu-system-x86_64 >/dev/null && command -v busybox >/dev/null &&
		command -v cpio >/dev/null && command -v modprobe >/dev/null &&
		qemu-system-x86_64 -device help 2>/dev/null | grep -q '"igb"' ||
		bash "$_igb_root/scripts/setup.sh" --vm igb >&2 || return 1
	mkdir -p "$VM_CACHE"
	# the kernel linux-image-amd64 points at in bookworm (not backports)
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }')
	[ -n "$pkg" ] || {
		echo "vm igb: apt-cache knows no linux-image-amd64 (apt-get update?)" >&2
		return 1
	}
	kver=${pkg#linux-image-}
	stamp="$kver $(cksum <"$_igb_root/scripts/vm/igb/init.sh") $(cksum <"$_igb_root/scripts/vm/igb/machine.sh")"
	if [ -f "$VM_CACHE/stamp" ] && [ "$(cat "$VM_CACHE/stamp")" = "$stamp" ] &&
		[ -f "$VM_CACHE/initrd.gz" ]; then
		return 0
	fi
	if [ ! -f "$VM_CACHE/kroot/boot/vmlinuz-$kver" ]; then
		echo "vm igb: fetching $pkg" >&2
		rm -rf "$VM_CACHE/dl" "$VM_CACHE/kroot"
		mkdir -p "$VM_CACHE/dl"
		(cd "$VM_CACHE/dl" && bash "$_igb_root/scripts/apt-get-wait.sh" download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2) || true
		deb=$(ls "$VM_CACHE"/dl/"$pkg"_*.deb 2>/dev/null | head -1)
		[ -n "$deb" ] || {
			echo "vm igb: apt-get download $pkg failed" >&2
			return 1
		}
		dpkg-deb -x "$deb" "$VM_CACHE/kroot.tmp" && mv "$VM_CACHE/kroot.tmp" "$VM_CACHE/kroot" || return 1
		rm -rf "$VM_CACHE/dl"
		depmod -b "$VM_CACHE/kroot" "$kver" || return 1
	fi
	echo "$kver" >"$VM_CACHE/kver"
	echo "vm igb: building the initramfs" >&2
	_igb_initrd "$kver" || return 1
	echo "$stamp" >"$VM_CACHE/stamp"
}

vm_qemu() {
	local script=$1 kver i s args=() nic mac
	kver=$(_igb_kver)
	i=0
	for s in $(_igb_slots); do
		mac=52:54:00:00:00:1$i
		args+=(-netdev "dgram,id=n$i,local.type=inet,local.host=127.0.0.1,local.port=$((VM_PORT_BASE + 2 * i)),remote.type=inet,remote.host=127.0.0.1,remote.port=$((VM_PORT_BASE + 2 * i + 1))"
			-device "$VM_NIC,netdev=n$i,addr=$s.0,romfile=,mac=$mac")
		i=$((i + 1))
	done
	# no KVM on these hosts (and -accel kvm hangs in SeaBIOS there): TCG.
	# no_timer_check: the kernel's check that the timer ticks through the
	# IO-APIC times out when the busy host deschedules the vCPU, and it
	# panics ("timer doesn't work through Interrupt-remapped IO-APIC")
	exec timeout -k 5 "$VM_QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -machine q35 -cpu max \
		-smp "$VM_CPUS" -m "$VM_MEM_MB" -display none -monitor none -nodefaults -no-reboot \
		-chardev stdio,id=con,signal=off -serial chardev:con \
		-kernel "$VM_CACHE/kroot/boot/vmlinuz-$kver" -initrd "$VM_CACHE/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet loglevel=4 intel_iommu=on no_timer_check vm_script=$script" \
		-device intel-iommu \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on \
		"${args[@]}"
}
