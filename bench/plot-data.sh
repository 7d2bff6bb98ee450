#!/usr/bin/env bash
# Measure the generator's pacing over time and its latency distribution on a net_ring loop, into
# the result files bench/plot.py draws (docs/data/pktgen-pacing.csv, docs/data/pktgen-latency.csv).
# The other result files in docs/data/ are the tables of the benchmark pages, each made by the
# command its page gives. Never run by the tests (it measures; the machine is shared and noisy).
#   bench/plot-data.sh [BUILDDIR]     env: RATE (default 2mpps), SECS (default 5), PERIOD (0.1)
# Pacing is sampled over the telemetry socket (/forwarder/pktgen, tx_pkts) with the host's
# monotonic clock, so each interval's length is measured, not the stats print's nominal period.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
export RATE=${RATE:-2mpps} SECS=${SECS:-5} PERIOD=${PERIOD:-0.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash scripts/build.sh "$dir" >/dev/null
cat >"$tmp/gen.ini" <<INI
[forward]
fwd = pktgen
port-topology = loop
[pktgen]
proto = udp
size = 64
flows = 16
rate = $RATE
INI
/usr/bin/python3 - "$dir/app/dpdk-forwarder" "$tmp" docs/data <<'PY'
import json, os, re, socket, subprocess, sys, time
exe, tmp, out = sys.argv[1:4]
rate, secs, period = os.environ["RATE"], float(os.environ["SECS"]), float(os.environ["PERIOD"])
m = re.fullmatch(r"([\d.]+)(pps|kpps|mpps)?", rate)
target = float(m.group(1)) * {"pps": 1, "kpps": 1e3, "mpps": 1e6, None: 1}[m.group(2)]
prefix = f"plotdata{os.getpid()}"
proc = subprocess.Popen([exe, "-l", "0,1", "--no-huge", "-m", "256", "--no-pci", "--file-prefix",
                         prefix, "--vdev", "net_ring0", "--", "--config", f"{tmp}/gen.ini",
                         "--duration", str(secs), "--stats-file", f"{tmp}/stats.json"],
                        stdout=subprocess.DEVNULL)
path = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
sock = None
for _ in range(200):
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sock.connect(path)
        break
    except OSError:
        sock = None
        time.sleep(0.05)
if sock is None:
    sys.exit(f"no telemetry socket at {path}")
sock.recv(4096)
rows = []
try:
    while proc.poll() is None:
        sock.send(b"/forwarder/pktgen")
        now = time.monotonic()
        reply = json.loads(sock.recv(65536))["/forwarder/pktgen"]
        rows.append((now, sum(v["tx_pkts"] for v in (reply or {}).values())))
        time.sleep(period)
except (OSError, ValueError, KeyError):
    pass  # the process ended between two samples
if proc.wait() != 0:
    sys.exit(f"the forwarder exited with {proc.returncode}")
rows = [r for r in rows if r[1] > 0]  # from the first packet sent
with open(f"{out}/pktgen-pacing.csv", "w") as f:
    f.write(f"# target {target:.0f} pps, net_ring loop, 64 B, sampled over telemetry every "
            f"{period} s; bench/plot-data.sh\n")
    f.write("t_s,sent,interval_pps,error_pct\n")
    for (t0, n0), (t1, n1) in zip(rows, rows[1:]):
        if n1 == n0:
            break  # the generator stopped (end of the run)
        pps = (n1 - n0) / (t1 - t0)
        f.write(f"{t1 - rows[0][0]:.3f},{n1},{pps:.0f},{100 * (pps - target) / target:.3f}\n")
pg = json.load(open(f"{tmp}/stats.json"))["pktgen"][0]
with open(f"{out}/pktgen-latency.csv", "w") as f:
    f.write(f"# {rate}, net_ring loop, 64 B; bucket 0 is 0 ns, bucket i [2^(i-1), 2^i) ns\n")
    f.write("bucket,low_ns,high_ns,packets\n")
    last = len(pg["lat_hist"]) - 1
    for i, n in enumerate(pg["lat_hist"]):
        lo = 0 if i == 0 else 2 ** (i - 1)
        hi = 0 if i == 0 else ("inf" if i == last else 2 ** i)
        f.write(f"{i},{lo},{hi},{n}\n")
print(f"pacing: {len(rows)} samples; latency: {pg['rx']['signed_pkts']} packets "
      f"(min {pg['rx']['lat_min_ns']} avg {pg['rx']['lat_avg_ns']} max {pg['rx']['lat_max_ns']} ns)")
PY
