#!/usr/bin/python3
"""Mutation testing: put one real-looking bug into the code at a time and see a test fail.

Each mutant of tests/mutation/mutants.ini names a file, a piece of text that
stands exactly once in it, what to put instead, and the tests that should
notice (meson test names, or `suite:NAME`). For each mutant the script writes
the change into a copy of the tree, rebuilds what those tests run, runs them,
and puts the text back. A mutant is

  killed     a test failed (or timed out, or crashed): the suite noticed the bug
  survived   every named test passed: no test sees this bug
  stillborn  the mutated code did not build (a broken mutant, not a score)

It prints a line per mutant, then the score and the survivors. The source
tree is never touched: the work is done in a copy (--tree, default a new
directory under /tmp that is removed at the end), so the sample can run
beside other builds of the same checkout.

  scripts/mutate.py                  every mutant (about 40 minutes on 2 cores)
  scripts/mutate.py --sample         the mutants marked `sample = yes` (CI's, a few minutes)
  scripts/mutate.py --only ID [ID..] the named ones
  scripts/mutate.py --list           list them, check each still applies, build nothing
  scripts/mutate.py --sample --in-place build   in this checkout, rebuilding in build/
                                     (nothing else may build or run from it meanwhile)
  scripts/mutate.py --min-score 95   exit 1 below 95 % killed (default: 100 with --sample, 0 otherwise)

Exit 1 when a mutant no longer applies (its text is not in the file exactly
once: the code moved; mend the mutant), when the unmutated tree fails a test
a mutant names (a baseline that fails says nothing), or below --min-score.
"""
import argparse
import configparser
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MUTANTS = os.path.join(TOP, "tests", "mutation", "mutants.ini")


def unescape(v):
    """A value's \\n, \\t and \\\\ as newline, tab and one backslash (ASCII C source only)."""
    return v.encode("ascii").decode("unicode_escape")


class Mutant:
    def __init__(self, ident, sec):
        self.id = ident
        self.file = sec.get("file", "")
        self.old = unescape(sec.get("from", ""))
        self.new = unescape(sec.get("to", ""))
        self.tests = sec.get("tests", "").split()
        self.why = sec.get("why", "")
        self.sample = sec.getboolean("sample", fallback=False)
        missing = [k for k in ("file", "from", "tests", "why") if not sec.get(k)]
        if missing or "to" not in sec:
            raise SystemExit(f"mutate: [{ident}] lacks {', '.join(missing or ['to'])}")
        if self.old == self.new:
            raise SystemExit(f"mutate: [{ident}] changes nothing")

    def check(self, top):
        """The reason this mutant no longer applies to the tree at TOP, or None."""
        path = os.path.join(top, self.file)
        try:
            with open(path) as f:
                n = f.read().count(self.old)
        except OSError as e:
            return f"{self.file}: {e.strerror}"
        if n != 1:
            return f"{self.file}: its text stands {n} times (must be once): {self.old!r}"
        return None


def load(path):
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",), comment_prefixes=("#",),
                                   inline_comment_prefixes=None, empty_lines_in_values=False)
    cp.optionxform = str
    with open(path) as f:
        cp.read_file(f)
    return [Mutant(s, cp[s]) for s in cp.sections()]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def copy_tree(dest):
    """Copy the files git tracks (or, outside a checkout, all but build trees) to DEST."""
    r = run(["git", "-C", TOP, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    if r.returncode == 0:
        files = [f for f in r.stdout.split("\0") if f]
    else:
        files = []
        for root, dirs, names in os.walk(TOP):
            dirs[:] = [d for d in dirs if not d.startswith(("build", ".git"))]
            files += [os.path.relpath(os.path.join(root, n), TOP) for n in names]
    for f in files:
        src = os.path.join(TOP, f)
        if not os.path.isfile(src):
            continue  # a deleted but not yet committed file
        d = os.path.join(dest, f)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(src, d)


def restore_journal(journal):
    """A run killed with a mutant in: put that file's text back (the journal says which)."""
    try:
        with open(journal) as f:
            j = json.load(f)
    except FileNotFoundError:
        return
    with open(j["path"], "w") as f:
        f.write(j["text"])
    os.unlink(journal)
    print(f"mutate: {j['path']} restored from an interrupted run", flush=True)


def setup(tree):
    build = os.path.join(tree, "build")
    if os.path.isfile(os.path.join(build, "build.ninja")):
        return build
    r = run(["meson", "setup", build], cwd=tree)
    if r.returncode:
        sys.exit(f"mutate: meson setup failed:\n{r.stdout[-3000:]}")
    # the driver-SDK headers: the checkout's build tree has them already; else fetch
    have = os.path.join(TOP, "build", "dpdk-sdk")
    if os.path.isdir(have):
        shutil.copytree(have, os.path.join(build, "dpdk-sdk"), dirs_exist_ok=True)
    else:
        r = run(["bash", "scripts/dpdk-sdk-headers.sh", os.path.join(build, "dpdk-sdk", "include")], cwd=tree)
        if r.returncode:
            sys.exit(f"mutate: the driver-SDK headers could not be had:\n{r.stdout[-2000:]}")
    return build


def resolve(build, names):
    """Meson test names for NAMES (a name, or suite:S), and the ninja targets they run."""
    tests = json.loads(run(["meson", "introspect", build, "--tests"]).stdout)
    targets = {t["id"]: t["filename"] for t in json.loads(run(["meson", "introspect", build, "--targets"]).stdout)}
    chosen, outputs = [], set()
    for n in names:
        if n.startswith("suite:"):
            s = n[len("suite:"):]
            hit = [t for t in tests if any(x.split(":")[-1] == s for x in t["suite"])]
        else:
            hit = [t for t in tests if t["name"] == n]
        if not hit:
            sys.exit(f"mutate: no test {n!r} in this build (meson test -C {build} --list)")
        for t in hit:
            if t["name"] not in chosen:
                chosen.append(t["name"])
            for d in t["depends"]:
                for fn in targets.get(d, []):
                    outputs.add(os.path.relpath(fn, build))
    return chosen, sorted(outputs)


def ninja(build, outputs):
    return run(["ninja", "-C", build] + outputs)


def meson_test(build, names, jobs, show_failures=False):
    """(passed, the names of the tests that failed). The log is mutate.json, so that a
    `meson test` this runs under keeps its own testlog.json. With SHOW_FAILURES, print
    the end of each failed test's output (a baseline failure must say why)."""
    log = os.path.join(build, "meson-logs", "mutate.json")
    if os.path.exists(log):
        os.unlink(log)
    run(["meson", "test", "-C", build, "--no-rebuild", "--logbase", "mutate",
         "--num-processes", str(jobs)] + names)
    failed = []
    try:
        with open(log) as f:
            for line in f:
                r = json.loads(line)
                if r["result"] not in ("OK", "SKIP", "EXPECTEDFAIL"):
                    failed.append(r["name"].split(" / ")[-1])
                    if show_failures:
                        print(f"mutate: {r['name']}: {r['result']}, its output's end:\n"
                              + (r.get("stdout") or "")[-3000:], flush=True)
    except FileNotFoundError:
        failed.append("(meson test wrote no log)")
    return not failed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", action="store_true", help="only the mutants marked sample = yes")
    ap.add_argument("--only", nargs="+", metavar="ID", help="only these mutants")
    ap.add_argument("--list", action="store_true", help="list and check the mutants; build nothing")
    ap.add_argument("--tree", help="the copy to work in (kept; reused when it has a build)")
    ap.add_argument("--in-place", metavar="BUILDDIR", default=os.environ.get("FWD_MUTATION_IN_PLACE"),
                    help="mutate this checkout and rebuild in its BUILDDIR (no copy, no baseline "
                         "build: nothing else may build or run from this tree meanwhile; "
                         "default: $FWD_MUTATION_IN_PLACE)")
    ap.add_argument("--min-score", type=float, help="exit 1 below this percentage killed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="meson test --num-processes")
    ap.add_argument("--mutants", default=MUTANTS, help=argparse.SUPPRESS)
    a = ap.parse_args()

    mutants = load(a.mutants)
    ids = [m.id for m in mutants]
    if len(set(ids)) != len(ids):
        sys.exit("mutate: two mutants share an id")
    if a.only:
        unknown = set(a.only) - set(ids)
        if unknown:
            sys.exit(f"mutate: no mutant {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m.id in a.only]
    elif a.sample:
        mutants = [m for m in mutants if m.sample]
    if not mutants:
        sys.exit("mutate: no mutant chosen")

    stale = [(m, m.check(TOP)) for m in mutants]
    stale = [(m, why) for m, why in stale if why]
    for m, why in stale:
        print(f"stale      {m.id}: {why}")
    if a.list:
        for m in mutants:
            print(f"{m.id:32} {'sample ' if m.sample else '       '}{m.file}: {m.why}")
        print(f"{len(mutants)} mutants, {len(stale)} stale")
        return 1 if stale else 0
    if stale:
        print(f"mutate: {len(stale)} mutants no longer apply: mend them (tests/mutation/mutants.ini)")
        return 1

    min_score = a.min_score if a.min_score is not None else (100.0 if a.sample else 0.0)
    start = time.monotonic()
    if a.in_place:
        tree, build = TOP, os.path.abspath(a.in_place)
        if not os.path.isfile(os.path.join(build, "build.ninja")):
            sys.exit(f"mutate: {build} is not a configured build tree")
    else:
        tree = a.tree or tempfile.mkdtemp(prefix="fwd-mutate-")
    journal = os.path.join(tree, ".mutate-restore")
    restore_journal(journal)
    # SIGTERM (meson's timeout, CI's end) as an exception: the finally below puts the text back
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("mutate: terminated"))
    try:
        if not a.in_place:
            if not os.path.isfile(os.path.join(tree, "meson.build")):
                copy_tree(tree)
            build = setup(tree)
        every = sorted({t for m in mutants for t in m.tests})
        names, outputs = resolve(build, every)
        print(f"mutate: {len(mutants)} mutants; building what their {len(names)} tests run in {tree}", flush=True)
        r = ninja(build, outputs)
        if r.returncode:
            print(r.stdout[-3000:])
            sys.exit("mutate: the unmutated tree does not build")
        ok, failed = meson_test(build, names, a.jobs, show_failures=True)
        if not ok:
            sys.exit(f"mutate: the unmutated tree fails {', '.join(failed)}: fix that first")
        print(f"mutate: baseline passes ({time.monotonic() - start:.0f} s)", flush=True)

        killed, survived, stillborn = [], [], []
        for m in mutants:
            t0 = time.monotonic()
            path = os.path.join(tree, m.file)
            with open(path) as f:
                text = f.read()
            with open(journal, "w") as f:
                json.dump({"path": path, "text": text}, f)
            try:
                with open(path, "w") as f:
                    f.write(text.replace(m.old, m.new, 1))
                mnames, mout = resolve(build, m.tests)
                if ninja(build, mout).returncode:
                    stillborn.append(m)
                    verdict = "stillborn (does not build)"
                else:
                    ok, failed = meson_test(build, mnames, a.jobs)
                    if ok:
                        survived.append(m)
                        verdict = "SURVIVED"
                    else:
                        killed.append(m)
                        verdict = "killed by " + ", ".join(failed[:3]) + (" ..." if len(failed) > 3 else "")
            finally:
                with open(path, "w") as f:
                    f.write(text)
                os.unlink(journal)
            print(f"{m.id:32} {verdict} ({time.monotonic() - t0:.0f} s)", flush=True)
        ninja(build, outputs)  # leave the kept tree as the source
    finally:
        if not a.tree and not a.in_place:
            shutil.rmtree(tree, ignore_errors=True)

    scored = len(killed) + len(survived)
    score = 100.0 * len(killed) / scored if scored else 0.0
    print(f"mutation score: {len(killed)} of {scored} killed ({score:.1f} %), "
          f"{len(stillborn)} stillborn, {time.monotonic() - start:.0f} s")
    for m in survived:
        print(f"survivor: {m.id} ({m.file}): {m.why}")
    for m in stillborn:
        print(f"stillborn: {m.id} ({m.file}): mend it")
    return 1 if score < min_score or stillborn else 0


if __name__ == "__main__":
    sys.exit(main())
