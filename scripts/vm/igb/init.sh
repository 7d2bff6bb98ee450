#!/bin/sh
# /init of the igb guest's initramfs (busybox): load the 9p modules, mount the
# host's / read-only (its /tmp too, for files named in the options), give it
# fresh /proc, /sys, /dev, /run, /var/tmp and
# hugetlbfs, run the guest script (vm_script= on the kernel command line) in a
# chroot of it, power off. Everything the guest writes stays in its tmpfs.
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
for m in $(/bin/busybox cat /mod/order); do
	/bin/busybox insmod "/mod/$m" || echo "init: insmod $m failed"
done
script=
for a in $(/bin/busybox cat /proc/cmdline); do
	case "$a" in vm_script=*) script=${a#vm_script=} ;; esac
done
r=/newroot
# the virtio device may be probed a moment after its module is in
i=0
until /bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288 hostroot $r 2>/dev/null; do
	i=$((i + 1))
	if [ $i -ge 50 ]; then
		/bin/busybox ls /sys/bus/virtio/devices /sys/bus/pci/devices
		/bin/busybox cat /proc/modules
		break
	fi
	/bin/busybox sleep 0.2
done
if [ $i -lt 50 ]; then
	# a copy in the guest tmpfs: the host file may go away while the guest runs
	/bin/busybox cp "$r$script" /vm-script.sh || echo "init: cannot read $script"
	/bin/busybox mount -t proc proc $r/proc
	/bin/busybox mount -t sysfs sys $r/sys
	/bin/busybox mount -t devtmpfs dev $r/dev
	/bin/busybox mkdir -p $r/dev/pts $r/dev/hugepages $r/dev/shm
	/bin/busybox mount -t devpts devpts $r/dev/pts
	/bin/busybox mount -t tmpfs tmpfs $r/dev/shm
	/bin/busybox mount -t hugetlbfs hugetlbfs $r/dev/hugepages
	for d in run var/tmp; do
		/bin/busybox mount -t tmpfs tmpfs $r/$d
	done
	/bin/busybox cp /vm-script.sh $r/run/vm-script.sh
	/bin/busybox chroot $r /bin/sh /run/vm-script.sh </dev/console >/dev/console 2>&1
else
	echo "@@VM EXIT 99 (init: cannot mount the host root over 9p)"
fi
/bin/busybox sync
/bin/busybox poweroff -f
