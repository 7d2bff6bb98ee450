#!/usr/bin/env bash
# Instructions per packet of net_fec's RX and TX bursts on the model (callgrind),
# model cost excluded, with net_ring's bursts measured the same way as a baseline.
#   bench/fec_pmd/run.sh [BUILDDIR] [BURSTS] [BURST]
# Collection is on only inside the burst function; the inclusive cost of the
# model's register write called from inside it (a single store on hardware) is
# subtracted.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build}
bursts=${2:-200}
burst=${3:-32}
bin="$dir/bench/fec_pmd/bench-fec-pmd"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() { # name fn [legacy]
	local what=$1 fn=$2 extra=${3:-}
	valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$fn" \
		--callgrind-out-file="$out/cg" "$bin" "$what" "$bursts" "$burst" $extra \
		>/dev/null 2>&1
	callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" 2>/dev/null |
		awk -v pk=$((bursts * burst)) -v name="$what${extra:+ ($extra)} [$fn]" '
		/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
		/fec_model_reg_write/ { gsub(",", "", $1); model = $1 }
		END { printf "%-40s %6.1f Ir/pkt  (total %d, model %d, %d pkts)\n",
			name, (total - model) / pk, total, model, pk }'
}

echo "# $bin, $bursts bursts of $burst, pool cache 256"
measure rx fec_rx_burst
measure tx fec_tx_burst
measure rx fec_rx_burst legacy
measure rx fec_rx_burst ptype
measure rx fec_rx_burst offload
measure rx fec_rx_burst rxcsum
measure rx fec_rx_burst_scatter scatter
measure rx fec_rx_burst_ts timestamp
measure tx fec_tx_burst legacy
measure tx fec_tx_burst fastfree
measure tx fec_tx_burst csum
measure tx fec_tx_burst timesync
measure tx fec_tx_prepare csum
echo "# same-run baseline: whole rte_eth_*_burst call (ethdev wrapper included), net_fec vs net_ring"
# (features off: packet types turned off with rte_eth_dev_set_ptypes, no offload)
measure rx 'rte_eth_rx_burst*'
measure tx 'rte_eth_tx_burst*'
measure ring-rx 'rte_eth_rx_burst*'
measure ring-tx 'rte_eth_tx_burst*' 
