#!/usr/bin/env bash
# Run dpdk-forwarder on emulated hardware: a QEMU guest with real device
# models (igb/e1000e on x86_64, the i.MX 8M Plus ENET on arm64).
#
#   scripts/vm-run.sh --machine imx8mp|igb [--in PORT=FILE.pcap ...]
#       [--out PORT=FILE.pcap ...] [--stats-file F] [--timeout S]
#       -- <dpdk-forwarder options>
#
# Prepares the guest once (cached under build/vm/<machine>/, VM_CACHE
# overrides), boots it, binds the NIC(s) to a userspace driver, reserves
# hugepages, runs the forwarder with the given options (the EAL options are the
# machine's), injects each input pcap into its port, writes what each port
# sends into its output pcap, copies the stats file out and exits with the
# forwarder's status: 124 on timeout, 2 on bad usage, 3 when the guest could
# not be prepared, 4 when it did not boot or ended without a status.
# Environment: VM_PPS (injection rate, 500), VM_QUIET (s of silence that end a
# run, 2), VM_VERBOSE=1 (console on stderr), VM_KEEP=1 (keep the run's temp
# dir), and the machine's own knobs (scripts/vm/README.md).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	echo "usage: scripts/vm-run.sh --machine imx8mp|igb [--in PORT=FILE.pcap ...] [--out PORT=FILE.pcap ...] [--stats-file F] [--timeout S] -- <dpdk-forwarder options>" >&2
	[ $# -gt 0 ] && echo "vm-run: $*" >&2
	exit 2
}

machine="" stats="" timeout=600 ins=() outs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--machine) [ $# -ge 2 ] || usage "--machine needs a value"; machine=$2; shift 2 ;;
	--machine=*) machine=${1#*=}; shift ;;
	--in) [ $# -ge 2 ] || usage "--in needs PORT=FILE"; ins+=("$2"); shift 2 ;;
	--in=*) ins+=("${1#*=}"); shift ;;
	--out) [ $# -ge 2 ] || usage "--out needs PORT=FILE"; outs+=("$2"); shift 2 ;;
	--out=*) outs+=("${1#*=}"); shift ;;
	--stats-file) [ $# -ge 2 ] || usage "--stats-file needs a file"; stats=$2; shift 2 ;;
	--stats-file=*) stats=${1#*=}; shift ;;
	--timeout) [ $# -ge 2 ] || usage "--timeout needs seconds"; timeout=$2; shift 2 ;;
	--timeout=*) timeout=${1#*=}; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	*) usage "unknown option '$1' (forwarder options go after --)" ;;
	esac
done
[ -n "$machine" ] || usage "--machine is required"
[ -f "$root/scripts/vm/$machine/machine.sh" ] || usage "unknown machine '$machine' (igb, imx8mp)"
[[ "$timeout" =~ ^[0-9]+$ ]] && [ "$timeout" -gt 0 ] || usage "--timeout wants whole seconds > 0"
for kv in "${ins[@]}"; do
	[[ "$kv" =~ ^[0-9]+=.+ ]] || usage "--in $kv: want PORT=FILE.pcap"
	[ -r "${kv#*=}" ] || usage "--in $kv: cannot read ${kv#*=}"
done
for kv in "${outs[@]}"; do
	[[ "$kv" =~ ^[0-9]+=.+ ]] || usage "--out $kv: want PORT=FILE.pcap"
done
# the guest's own stats file is the one vm-run.sh adds and copies out
app=()
for a in "$@"; do
	case "$a" in --stats-file | --stats-file=*) usage "give --stats-file before --, to vm-run.sh" ;; esac
	app+=("$a")
done

export VM_CACHE=${VM_CACHE:-$root/build/vm/$machine}
VM_WORK=$(mktemp -d "${TMPDIR:-/tmp}/vm-run-$machine.XXXXXX")
export VM_WORK
export VM_FWD_BIN=${VM_FWD_BIN:-$root/build/app/dpdk-forwarder}
export VM_QEMU_TIMEOUT=${VM_QEMU_TIMEOUT:-$((timeout + 30))}
export VM_ROOT=$root
# shellcheck source=/dev/null
. "$root/scripts/vm/$machine/machine.sh"

cleanup() {
	local st=$?
	if [ "${VM_KEEP:-}" = 1 ] || [ "$st" -ne 0 ]; then
		echo "vm-run: kept $VM_WORK" >&2
	else
		rm -rf "$VM_WORK"
	fi
}
trap cleanup EXIT

# the host binary the x86 guest runs through its 9p view of /; other machines
# bring their own (vm_prepare)
if [ "$machine" = igb ] && [ ! -x "$VM_FWD_BIN" ]; then
	echo "vm-run: building $VM_FWD_BIN" >&2
	bash "$root/scripts/build.sh" "$root/build" >&2 || { echo "vm-run: build failed" >&2; exit 3; }
fi
vm_prepare || { echo "vm-run: cannot prepare the $machine guest" >&2; exit 3; }

nports=$(vm_ports)
VM_PORT_BASE=${VM_PORT_BASE:-$(/usr/bin/python3 "$root/scripts/vm/hostnet.py" pick-base "$nports")} || exit 3
export VM_PORT_BASE

# 'a b' -> "'a b'" for the guest's sh (eval "set -- $VM_ARGS")
sq() { printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"; }
args_q=""
for a in "${app[@]}"; do args_q="$args_q $(sq "$a")"; done

guest=$VM_WORK/guest.sh
{
	echo "#!/bin/sh"
	echo "export PATH=/usr/sbin:/usr/bin:/sbin:/bin"
	echo "VM_BIN=$(sq "$(vm_guest_bin)")"
	echo "VM_EAL=$(sq "$(vm_eal)")"
	echo "VM_ARGS=$(sq "$args_q")"
	echo "VM_PORTS=$nports"
	echo "VM_NEED_LINK=${VM_NEED_LINK:-1}"
	echo "VM_READY_TIMEOUT=${VM_READY_TIMEOUT:-180}"
	# optional hook: where the guest script may write (default /tmp)
	if [ "$(type -t vm_guest_tmp)" = function ]; then echo "VM_GUEST_TMP=$(sq "$(vm_guest_tmp)")"; fi
	echo "vm_setup() {"
	vm_guest_setup
	echo ":"
	echo "}"
	cat "$root/scripts/vm/guest-common.sh"
} >"$guest" || exit 3

hn=(/usr/bin/python3 "$root/scripts/vm/hostnet.py" run --ports "$nports" --base "$VM_PORT_BASE"
	--console-log "$VM_WORK/console.log" --timeout "$timeout")
for kv in "${ins[@]}"; do hn+=(--in "$kv"); done
for kv in "${outs[@]}"; do hn+=(--out "$kv"); done
[ -n "$stats" ] && hn+=(--stats-out "$stats")
echo "vm-run: $machine guest, UDP ports from $VM_PORT_BASE, console log $VM_WORK/console.log" >&2
"${hn[@]}" -- bash -c '. "$1"; vm_qemu "$2"' vm-qemu "$root/scripts/vm/$machine/machine.sh" "$guest"
