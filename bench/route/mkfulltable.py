#!/usr/bin/env python3
"""Write a synthetic full IPv4 table as files the forwarder reads (routes-file, neigh-file).

bench/route/mkfulltable.py OUTDIR [ROUTES] [NEXT_HOPS] [SEED]
  OUTDIR/full.routes   `ip -4 route show` lines, ROUTES of them (default 1 000 000)
  OUTDIR/full.neigh    `ip -4 neigh show` lines: one static neighbour per gateway
  OUTDIR/full.ini      a route-mode config: port 0 10.0.0.1/24, port 1 100.64.0.1/10 (the gateways)

The prefix-length mix is the DFZ's of issue 17 (60 % /24, 13 % /22, 12 % /23, 6 % /21, 5 % /20,
1.4 % /16, the rest over /8-/19 and a few longer than /24), each prefix once, in a random order,
outside 0/8, 10/8, 100.64/10, 127/8 and 224/3, over NEXT_HOPS gateways (default 65 536).
"""
import random
import sys

MIX = [(24, 600), (22, 130), (23, 120), (21, 60), (20, 50), (16, 14), (19, 8), (18, 5),
       (17, 3), (15, 1.5), (14, 1.2), (13, 1), (12, 0.8), (11, 0.5), (10, 0.4), (9, 0.3),
       (8, 0.3), (25, 1.5), (26, 1.2), (27, 0.8), (28, 0.6), (29, 0.5), (30, 0.3), (32, 0.3)]


def reserved(a):
    top = a >> 24
    return top in (0, 10, 127) or top >= 224 or (a & 0xffc00000) == 0x64400000


def ip(a):
    return "%d.%d.%d.%d" % (a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255)


def generate(n, nh, seed):
    """[(prefix int, plen, gateway index)]: @n distinct routes over @nh gateways."""
    rnd = random.Random(seed)
    lens = [p for p, _ in MIX]
    weights = [w for _, w in MIX]
    seen, routes = set(), []
    while len(routes) < n:
        plen = rnd.choices(lens, weights)[0]
        a = rnd.getrandbits(32) & (0xffffffff << (32 - plen) & 0xffffffff)
        if reserved(a) or (a, plen) in seen:
            continue
        seen.add((a, plen))
        routes.append((a, plen, rnd.randrange(nh)))
    return routes


def gw_ip(i):
    """Gateway i, on port 1's network 100.64.0.0/10."""
    return ip(0x64400000 + 2 + i)


def gw_mac(i):
    return "02:00:%02x:%02x:%02x:%02x" % (i >> 24 & 255, i >> 16 & 255, i >> 8 & 255, i & 255)


def write(out, routes, nh):
    """OUTDIR/full.routes, full.neigh, full.ini (see the module's doc)."""
    with open(out + "/full.routes", "w") as f:
        f.write("# synthetic full table (bench/route/mkfulltable.py)\n")
        f.writelines("%s/%d via %s dev 1 proto bgp\n" % (ip(a), plen, gw_ip(g))
                     for a, plen, g in routes)
    with open(out + "/full.neigh", "w") as f:
        f.writelines("%s dev 1 lladdr %s PERMANENT\n" % (gw_ip(i), gw_mac(i)) for i in range(nh))
    with open(out + "/full.ini", "w") as f:
        f.write("[forward]\nfwd = route\n\n[port 0]\nip = 10.0.0.1/24\n\n[port 1]\n"
                "ip = 100.64.0.1/10\n\n[route]\nneigh-file = full.neigh\nroutes-file = full.routes\n")


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    nh = int(sys.argv[3]) if len(sys.argv) > 3 else 65536
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    write(out, generate(n, nh, seed), nh)


if __name__ == "__main__":
    main()
