# The guest side of scripts/vm-run.sh (busybox sh compatible). vm-run.sh
# writes a script made of: variable lines (VM_BIN, VM_EAL, VM_ARGS, VM_PORTS,
# VM_NEED_LINK, VM_READY_TIMEOUT), a function vm_setup holding the machine's
# vm_guest_setup commands, then this file. The console protocol is in
# scripts/vm/README.md. The machine's init powers the guest off when this
# script returns.

# VM_GUEST_TMP: a writable directory (the igb guest keeps the host's /tmp
# visible, read-only, so that files named in the options are found)
vm_tmp=${VM_GUEST_TMP:-/tmp}
mkdir -p "$vm_tmp"
vm_out=$vm_tmp/vm-fwd.out
vm_stats=$vm_tmp/vm-fwd-stats.json

# guest uptime, for the console log's timeline
vm_up() { cut -d' ' -f1 /proc/uptime; }

vm_exit() {
	echo "@@VM EXIT $1"
	exit "$1"
}

# Success when forwarding has started and every port's last link line says
# up (the forwarder logs "port N (name): Link up at ..." / "Link down" on each
# change). One awk per look: every process start is slow under TCG.
vm_ready() {
	awk -v n="$VM_PORTS" -v need="$VM_NEED_LINK" '
		# a --cmdline-file echoes its commands after a prompt the log then follows
		{ sub(/^(dpdk-forwarder> )+/, "") }
		/^forwarder: .* forwarding on / { fwd = 1 }
		/^forwarder: port [0-9]+ \(.*\): Link / { up[$3] = ($0 ~ /: Link up/) }
		END {
			if (!fwd) exit 1
			if (need != 1) exit 0
			for (p = 0; p < n; p++) if (!up[p]) exit 1
			exit 0
		}' "$vm_out"
}

# the host types @@VM STOP; do not echo it back into the console log
stty -echo 2>/dev/null

echo "vm: [$(vm_up)] setting up"
vm_setup || vm_exit 97
echo "vm: [$(vm_up)] starting $VM_BIN $VM_EAL -- $VM_ARGS --stats-file $vm_stats"
eval "set -- $VM_ARGS"
# shellcheck disable=SC2086 # VM_EAL is split on purpose
"$VM_BIN" $VM_EAL -- "$@" --stats-file "$vm_stats" >"$vm_out" 2>&1 </dev/null &
vm_pid=$!
tail -n +1 -f "$vm_out" &
vm_tail=$!

t=0
while :; do
	if ! kill -0 "$vm_pid" 2>/dev/null; then
		wait "$vm_pid"
		st=$?
		sleep 1
		kill "$vm_tail" 2>/dev/null
		echo "vm: the forwarder exited ($st) before forwarding with every link up"
		[ "$st" -ne 0 ] || st=98
		vm_exit "$st"
	fi
	if vm_ready; then
		break
	fi
	if [ "$t" -ge "$((VM_READY_TIMEOUT * 5))" ]; then
		kill "$vm_tail" 2>/dev/null
		echo "vm: not ready after $VM_READY_TIMEOUT s (forwarding and every link up)"
		kill -INT "$vm_pid" 2>/dev/null
		wait "$vm_pid"
		vm_exit 96
	fi
	sleep 0.2
	t=$((t + 1))
done
# the workers are launched: give them a moment to reach their poll loops
sleep 1
echo "vm: [$(vm_up)] ready"
echo "@@VM READY"

while read -r line; do
	case "$line" in *"@@VM STOP"*) break ;; esac
done
echo "vm: [$(vm_up)] stopping"
kill -INT "$vm_pid" 2>/dev/null
wait "$vm_pid"
st=$?
sleep 0.5
kill "$vm_tail" 2>/dev/null
wait "$vm_tail" 2>/dev/null
if [ -f "$vm_stats" ]; then
	echo "@@VM STATS-BEGIN"
	base64 "$vm_stats"
	echo "@@VM STATS-END"
fi
vm_exit "$st"
