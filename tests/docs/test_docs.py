#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The docs run as written.

    test_docs.py ROOT BUILDDIR [MARKDOWN...]     run and check (default: README.md, docs/*.md)
    test_docs.py ROOT BUILDDIR --fix [MARKDOWN...]  rewrite `file` blocks from their files

Every fenced shell block (```sh, ```bash, ```shell, ```console) of the
markdown is run, command by command, in a temp dir per page where the
repository is copied (`config/`, `scripts/`, ...) and `build` is
BUILDDIR, so a block runs exactly as a user in a clone would type it. Blocks of
one page share the dir, in order: a page that makes its pcaps first
(`scripts/make-pcaps.py`) feeds the examples after it.

A comment on the line above a fence says how to treat it:

  <!-- doctest: skip REASON -->  not run (set-up, benchmarks: minutes, root)
  <!-- doctest: hardware -->     needs a NIC or a board: only its dpdk-forwarder
                                 commands run, PCI devices (-a BDF) replaced by
                                 net_null vdevs, a uio FEC by its model, lcores
                                 the box lacks put on its CPUs (--lcores), with
                                 --no-huge -m 256 --no-pci; the rest (modprobe,
                                 devbind, sysfs) is not run
  <!-- doctest: vm -->           runs in the QEMU harness (suite vm-smoke,
                                 scripts/vm-test.sh): not run here
  <!-- doctest: beside OPT... -->  commands that talk to a running forwarder
                                 (telemetry): one is started with OPT on two
                                 net_null ports, <file-prefix> is its prefix
  <!-- doctest: file PATH -->    (any block) must be PATH's content, exactly
  <!-- doctest: ini [BASE] [OPT...] -->  an ```ini block: load it after the
                                 repository file BASE, with options OPT
  <!-- doctest: root [NEED...] -->  a ```sh or ```console block a user types as
                                 root (namespaces, FRR, BIRD): run as written
                                 in one bash session per page, in order (its
                                 variables, files and background jobs carry
                                 from block to block), in a mount, network and
                                 PID namespace of the test's own with /run a
                                 fresh tmpfs, so the page's namespace names,
                                 /run files and daemons are its own and go with
                                 it; NEED: commands or paths the block needs
                                 (skipped without them, or when not root). Every
                                 command must succeed (bash's ERR trap), or in a
                                 console block (`# ` or `$ ` prompts) print its
                                 shown output; after the page's last such block
                                 no namespace may be left and nothing running

Every other ```ini block is loaded as a config file on two net_null ports
(--duration 0.2): it must parse and run.

An unmarked shell block whose command this test cannot run fails it (mark the
block). A dpdk-forwarder command gets its own --file-prefix when it names EAL
options; one without --duration is stopped with SIGINT after a few seconds, as
a user types Ctrl-C; every one must exit 0. In a ```console block, `$ `
starts a command and the lines up to the next one are its expected output:
each must appear in what the command printed, in order, `...` matching any
text. Every input file a command names (--config, rx_pcap=, --in N=,
wire=pcap:[IN,...]) must be in the repository or made by make-pcaps.py. A fence
without a language whose first line is a command fails too (label it).
A block the prose presents as a repository file (the paragraph above names
`PATH` and ends with ':') must carry `file PATH`.
"""

import glob
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SHELL = ("sh", "bash", "shell", "console")
DIRECTIVE = re.compile(r"^<!--\s*doctest:\s*(\w+)\s*(.*?)\s*-->\s*$")
FWD_NAMES = ("dpdk-forwarder", "./build/app/dpdk-forwarder", "build/app/dpdk-forwarder")
PYTHONS = ("python3", "/usr/bin/python3")
# words an unlabeled fence must not start with: it is a command, label it ```sh
COMMAND_WORDS = set(FWD_NAMES) | set(PYTHONS) | {
    "bash", "sh", "sudo", "apt-get", "meson", "ninja", "valgrind", "modprobe", "echo",
    "dpdk-testpmd", "dpdk-devbind.py", "dpdk-hugepages.py", "dpdk-telemetry.py",
    "dpdk-dumpcap", "callgrind_annotate", "cat", "ip", "./build/bench", "build/bench"}
# what the hardware blocks may do that is not run here
HW_ONLY = {"modprobe", "dpdk-devbind.py", "dpdk-hugepages.py", "ip", "echo", "cat",
           "rmmod", "insmod", "mount"}
RUN_NO_DURATION = 2.5   # seconds before the Ctrl-C of a run with no --duration
RUN_SLACK = 30          # seconds past the expected end before a run is called hung
ROOT_BLOCK_S = 240      # a root block's bound: a hung wait loop, not a slow machine

root = os.path.abspath(sys.argv[1])
build = os.path.abspath(sys.argv[2])
args = sys.argv[3:]
fix = "--fix" in args
pages = [a for a in args if a != "--fix"] or (
    ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md"))))
binary = os.environ.get("DPDK_FORWARDER") or os.path.join(build, "app", "dpdk-forwarder")

failures = []
passed = 0
run_no = 0


def pcap_maker_files():
    """The files scripts/make-pcaps.py writes (its FILES table)."""
    try:
        spec = importlib.util.spec_from_file_location(
            "make_pcaps", os.path.join(root, "scripts", "make-pcaps.py"))
        mp = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mp)
        return set(mp.FILES)
    except (OSError, SystemExit, AttributeError) as e:
        fail("scripts/make-pcaps.py", "cannot read its FILES: %s" % e)
        return set()


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))
    print("not ok - %s: %s" % (where, msg))
    sys.stdout.flush()


def ok(where, msg):
    global passed
    passed += 1
    print("ok - %s: %s" % (where, msg))
    sys.stdout.flush()


# ------------------------------------------------------------ markdown


class Block:
    def __init__(self, page, line, lang, body, directive, arg, para):
        self.page, self.line, self.lang, self.body = page, line, lang, body
        self.directive, self.arg, self.para = directive, arg, para
        self.where = "%s:%d" % (page, line)


def blocks_of(page):
    lines = open(os.path.join(root, page)).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^(`{3,})\s*([\w+-]*)", lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence):
            j += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        d = DIRECTIVE.match(lines[k]) if k >= 0 else None
        para = []
        p = k - 1 if d else k
        while p >= 0 and lines[p].strip() and not lines[p].startswith("```"):
            para.insert(0, lines[p])
            p -= 1
        out.append(Block(page, i + 1, lang, lines[i + 1:j], d.group(1) if d else None,
                         d.group(2) if d else "", " ".join(para)))
        i = j + 1
    return out


def commands(body, console):
    """[(command words, expected output lines)] of a block; comments dropped,
    backslash continuations joined."""
    cmds, cur, expect, in_cmd = [], "", None, False
    for raw in body:
        line = raw.rstrip()
        if console:
            if line.startswith("$ ") and not in_cmd:
                if cur:
                    cmds.append((cur, expect))
                cur, expect = line[2:], []
                in_cmd = line.endswith("\\")
                continue
            if in_cmd:
                cur += "\n" + line
                in_cmd = line.endswith("\\")
                continue
            if expect is not None:
                expect.append(line)
            continue
        if in_cmd:
            cur += "\n" + line
            in_cmd = line.endswith("\\")
            if not in_cmd:
                cmds.append((cur, None))
                cur = ""
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cur = line
        in_cmd = line.endswith("\\")
        if not in_cmd:
            cmds.append((cur, None))
            cur = ""
    if cur:
        cmds.append((cur, expect))
    out = []
    for text, exp in cmds:
        try:
            words = shlex.split(text.replace("\\\n", " "), comments=True)
        except ValueError as e:
            words = ["<unparsable: %s>" % e]
        if words:
            out.append((words, exp, text.replace("\\\n", " ")))
    return out


# ------------------------------------------------------------ checks


def check_file_block(b):
    path = os.path.join(root, b.arg)
    if not b.arg or not os.path.isfile(path):
        fail(b.where, "`file %s`: no such file in the repository" % b.arg)
        return
    want = open(path).read().rstrip("\n").split("\n")
    if b.body == want:
        ok(b.where, "block is %s" % b.arg)
    elif fix:
        fixed.append((b, want))
        print("# %s: rewritten from %s" % (b.where, b.arg))
    else:
        diff = next(i for i in range(max(len(want), len(b.body)))
                    if i >= len(want) or i >= len(b.body) or want[i] != b.body[i])
        fail(b.where, "block differs from %s from its line %d (%r, file: %r); "
             "tests/docs/test_docs.py ROOT BUILD --fix rewrites it" % (
                 b.arg, diff + 1, b.body[diff] if diff < len(b.body) else "<end>",
                 want[diff] if diff < len(want) else "<end>"))


def presented_as_file(b):
    """A repository path the paragraph above presents the block as."""
    if not b.para.rstrip().endswith(":"):
        return None
    for m in re.findall(r"`([\w./-]+\.(?:ini|conf|cfg|json))`", b.para):
        if os.path.isfile(os.path.join(root, m)):
            return m
    return None


def input_files(words):
    """Input files a command names (relative to its dir)."""
    names = []
    for i, w in enumerate(words):
        if w in ("--config", "--cmdline-file") and i + 1 < len(words) and not words[i + 1].startswith("("):
            names.append(words[i + 1])
        elif w.startswith("--config=") and not w[9:].startswith("("):
            names.append(w[9:])
        if w == "--in" and i + 1 < len(words) and "=" in words[i + 1]:
            names.append(words[i + 1].split("=", 1)[1])
        for m in re.finditer(r"(?:^|,)rx_pcap=([^,]+)", w):
            names.append(m.group(1))
        for m in re.finditer(r"wire=pcap:\[([^,\]]+)", w):
            names.append(m.group(1))
    return names


def check_inputs(where, words, cwd, made):
    for n in input_files(words):
        if n.startswith("$PWD/"):
            n = n[5:]
        if n.startswith("/tmp/") or os.path.isabs(n):
            base = os.path.basename(n)
            if base in made_by_script or os.path.exists(n):
                continue
            fail(where, "%s: not in the repository, nor made by scripts/make-pcaps.py" % n)
            continue
        if os.path.exists(os.path.join(root, n)) or (cwd and os.path.exists(os.path.join(cwd, n))):
            continue
        if n in made_by_script:
            if not made:
                fail(where, "%s is made by scripts/make-pcaps.py, which the page does not "
                     "run before this command" % n)
            continue
        fail(where, "%s: not in the repository, nor made by scripts/make-pcaps.py" % n)


# ------------------------------------------------------------ running


def split_dashdash(words):
    if "--" in words:
        i = words.index("--")
        return words[1:i], words[i + 1:]
    return words[1:], []


def expand_lcores(spec):
    cpus = set()
    for part in spec.split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def hardware_argv(words):
    """A hardware command on this box: PCI devices as net_null vdevs, lcores on its CPUs."""
    eal, app = split_dashdash(words)
    out, nulls, i = [], 0, 0
    while i < len(eal):
        w = eal[i]
        if w in ("-a", "--allow", "-w") and i + 1 < len(eal):
            out += ["--vdev", "net_null%d" % nulls]
            nulls += 1
            i += 2
            continue
        if w.startswith("--iova-mode"):
            i += 1 if "=" in w else 2
            continue
        if w == "-l" and i + 1 < len(eal):
            want = expand_lcores(eal[i + 1])
            have = sorted(os.sched_getaffinity(0))
            if not want <= set(have):
                out += ["--lcores", "(%s)@(%s)" % (eal[i + 1], ",".join(map(str, have)))]
                i += 2
                continue
        if w == "--vdev" and i + 1 < len(eal) and "backend=uio" in eal[i + 1]:
            out += ["--vdev", eal[i + 1].replace("backend=uio", "backend=model")]
            i += 2
            continue
        out.append(w)
        i += 1
    for need in (["--no-huge"], ["-m", "256"], ["--no-pci"]):
        if need[0] not in out:
            out += need
    return [words[0]] + out + ["--"] + app


def run_forwarder(where, words, cwd, expect):
    global run_no
    run_no += 1
    eal, app = split_dashdash(words)
    argv = [binary] + words[1:]
    if eal and not any(w.startswith("--file-prefix") for w in eal):
        argv = [binary, "--file-prefix", "doctest-%d-%d" % (os.getpid(), run_no)] + words[1:]
    duration = None
    for i, w in enumerate(app):
        if w == "--duration" and i + 1 < len(app):
            duration = float(app[i + 1])
        elif w.startswith("--duration="):
            duration = float(w.split("=", 1)[1])
    print("# %s: %s" % (where, shlex.join(argv)))
    interactive = any(w in ("-i", "--interactive") for w in app)
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace")
    stdin = "start\nstop\nquit\n" if interactive else ""
    interrupted = False
    try:
        out, _ = p.communicate(stdin, timeout=(duration or RUN_NO_DURATION) + (RUN_SLACK if duration else 0))
    except subprocess.TimeoutExpired:
        if duration is not None:
            p.kill()
            out, _ = p.communicate()
            fail(where, "still running %.0f s after its --duration %s" % (RUN_SLACK, duration))
            return
        interrupted = True
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=RUN_SLACK)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
            fail(where, "did not stop within %d s of SIGINT" % RUN_SLACK)
            return
    how = "stopped by SIGINT after %.1f s" % (time.monotonic() - t0) if interrupted else \
        "ran %.1f s" % (time.monotonic() - t0)
    if p.returncode != 0:
        tail = "\n".join("#   " + l for l in out.rstrip().split("\n")[-15:])
        fail(where, "%s exited %d (%s):\n%s" % (shlex.join(words[:1] + words[1:]),
                                               p.returncode, how, tail))
        return
    if check_output(where, out, expect):
        ok(where, "%s: exit 0 (%s)" % (words[0], how))


def check_output(where, out, expect):
    if not expect:
        return True
    lines = out.split("\n")
    pos = 0
    for e in expect:
        e = e.rstrip()
        if not e or e.strip() == "...":
            continue
        # "a ... b": a, then b further on the line (the blanks around ... are optional)
        pat = re.compile(".*".join(re.escape(part.strip()) for part in e.strip().split("...")))
        while pos < len(lines) and not pat.search(lines[pos]):
            pos += 1
        if pos == len(lines):
            fail(where, "expected output line %r not printed (in this order); output:\n%s" % (
                e, "\n".join("#   " + l for l in out.rstrip().split("\n")[-25:])))
            return False
        pos += 1
    return True


def run_plain(where, words, cwd, expect):
    p = subprocess.run(words, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=120)
    if p.returncode != 0:
        fail(where, "%s exited %d:\n%s" % (shlex.join(words), p.returncode, p.stdout[-2000:]))
        return
    if check_output(where, p.stdout, expect):
        ok(where, "%s: exit 0" % shlex.join(words[:3]))


def telemetry_query(sock, cmd):
    """The answer of one telemetry command, or None (no socket yet, no answer)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
            s.settimeout(2)
            s.connect(sock)
            s.recv(16384)  # the greeting
            s.send(cmd.encode())
            return s.recv(1 << 16).decode(errors="replace")
    except OSError:
        return None


def run_beside(b, cmds, cwd):
    """A block of commands that talk to a running forwarder (telemetry): start
    one with OPTIONS on two net_null ports, run each command in bash with
    <file-prefix> its prefix, then stop it with SIGINT (exit 0)."""
    global run_no
    run_no += 1
    prefix = "doctest-%d-%d" % (os.getpid(), run_no)
    argv = [binary, "-l", "0,1", "--no-huge", "-m", "256", "--no-pci", "--file-prefix", prefix,
            "--vdev", "net_null0", "--vdev", "net_null1", "--"] + shlex.split(b.arg)
    fwd = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
    sock = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
    interactive = any(w in ("-i", "--interactive") for w in shlex.split(b.arg))
    deadline = time.monotonic() + RUN_SLACK
    up = False
    while not up and fwd.poll() is None and time.monotonic() < deadline:
        # up: its endpoints answer, its set-up is done (they answer "starting" from EAL's
        # start) and (without -i) it forwards
        ans = telemetry_query(sock, "/forwarder/stats")
        up = ans is not None and '"state"' in ans and '"starting"' not in ans and \
            (interactive or '"forwarding"' in ans)
        if not up:
            time.sleep(0.1)
    if not up:
        fwd.kill()
        fail(b.where, "the forwarder to talk to did not come up: %s" % fwd.communicate()[0][-1500:])
        return
    for words, expect, text in cmds:
        cmd = text.replace("<file-prefix>", prefix)
        p = subprocess.run(["bash", "-c", cmd], cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=60)
        if p.returncode != 0 or "Error" in p.stdout:
            fail(b.where, "%s: exit %d: %s" % (cmd, p.returncode, p.stdout[-1500:]))
        elif check_output(b.where, p.stdout, expect):
            ok(b.where, "%s: exit 0, beside a running forwarder" % cmd[:60])
    fwd.send_signal(signal.SIGINT)
    try:
        out, _ = fwd.communicate(timeout=RUN_SLACK)
    except subprocess.TimeoutExpired:
        fwd.kill()
        out, _ = fwd.communicate()
    if fwd.returncode != 0:
        fail(b.where, "the forwarder beside exited %d: %s" % (fwd.returncode, out[-1500:]))


def runnable(words):
    if words[0] in FWD_NAMES:
        return "fwd"
    if words[0] in PYTHONS and len(words) > 1 and words[1] == "scripts/make-pcaps.py":
        return "plain"
    if words[0] == "scripts/make-pcaps.py":
        return "plain"
    return None


def page_dir(page):
    """A copy of the source tree (a few MB: what a command writes stays out of
    the real one) with `build` the build dir under test."""
    d = tempfile.mkdtemp(prefix="doctest-%s-" % re.sub(r"\W", "_", page))
    for e in os.listdir(root):
        src = os.path.join(root, e)
        if e.startswith(".") or e.startswith("build"):
            continue
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(d, e), symlinks=True)
        else:
            shutil.copy2(src, d)
    os.symlink(build, os.path.join(d, "build"))
    return d


def run_shell_block(b, cwd, state):
    if b.directive == "root":
        run_root_block(b, cwd, state)
        return
    console = b.lang == "console"
    cmds = commands(b.body, console)
    if not cmds:
        return
    if b.directive == "skip":
        if not b.arg:
            fail(b.where, "`doctest: skip` needs a reason")
        else:
            print("ok - %s: # SKIP %s" % (b.where, b.arg))
        return
    if b.directive == "vm":
        ran = 0
        for words, _, _ in cmds:
            check_inputs(b.where, words, None, True)
            script = next((w for w in words if w.endswith("vm-run.sh") or w.endswith("vm-test.sh")), None)
            if script and not os.path.isfile(os.path.join(root, script)):
                fail(b.where, "%s does not exist" % script)
            ran += 1
        print("ok - %s: # SKIP %d VM command(s): the vm-smoke suite and scripts/vm-test.sh run them"
              % (b.where, ran))
        return
    if b.directive not in (None, "hardware", "beside"):
        fail(b.where, "unknown directive `doctest: %s`" % b.directive)
        return
    # a build without net_fec (-Dfec_pmd, meson sets FWD_FEC_PMD=0) cannot run its model
    if os.environ.get("FWD_FEC_PMD", "1") == "0" and b.directive is None and any(
            any(w.startswith("net_fec") for w in words) for words, _, _ in cmds):
        print("ok - %s: # SKIP net_fec is not built here (-Dfec_pmd)" % b.where)
        return
    if b.directive is None:
        cannot = [w for w, _, _ in cmds if runnable(w) is None]
        if cannot:
            fail(b.where, "cannot run %r%s: run it in the test, or mark the block "
                 "(<!-- doctest: skip REASON -->, hardware, vm)" % (
                     shlex.join(cannot[0])[:80],
                     " (and %d more)" % (len(cannot) - 1) if len(cannot) > 1 else ""))
            return
    if b.directive == "beside":
        run_beside(b, cmds, cwd)
        return
    for words, expect, _ in cmds:
        kind = runnable(words)
        if b.directive == "hardware":
            if kind == "fwd" and os.environ.get("FWD_FEC_PMD", "1") == "0" and any(
                    w.startswith("net_fec") for w in words):
                # its model run needs net_fec, not built here; the set-up steps are checked
                print("ok - %s: # SKIP net_fec is not built here (-Dfec_pmd)" % b.where)
            elif kind == "fwd":
                check_inputs(b.where, words, cwd, state["made"])
                run_forwarder(b.where, hardware_argv(words), cwd, expect)
            elif words[0] not in HW_ONLY:
                fail(b.where, "hardware block: %r is neither a dpdk-forwarder command nor a "
                     "set-up step this test knows (%s)" % (words[0], ", ".join(sorted(HW_ONLY))))
            continue
        check_inputs(b.where, words, cwd, state["made"])
        if kind == "fwd":
            run_forwarder(b.where, words, cwd, expect)
        else:
            run_plain(b.where, words, cwd, expect)
            if "--count" not in words:
                state["made"] = True


# ------------------------------------------------------------ root blocks


class RootSession:
    """One bash, as the user's root terminal, for the `root` blocks of a page:
    in a mount, network and PID namespace of its own (`unshare`), /run a fresh
    tmpfs there, so `ip netns add rtr`, /run/frr-rtr and the daemons a page
    starts are the test's alone (pages run at once on one machine do not
    meet) and all go when the session ends (its PID 1 gone, the kernel kills
    the rest). Output of the shell and of its background jobs is read by a
    thread; a block ends at a marker echoed after it."""

    def __init__(self, cwd):
        self.lines, self.cond, self.seq = [], threading.Condition(), 0
        # each block is sourced from a file here, its stdin /dev/null: a command that
        # reads stdin cannot eat the blocks after it
        self.dir = tempfile.mkdtemp(prefix="doctest-root-")
        env = dict(os.environ, PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                   TERM="dumb", LC_ALL="C")
        boot = ("mount -t tmpfs -o mode=755 doctest-run /run && mkdir -p /run/lock && "
                "ip link set lo up && exec bash --norc --noprofile")
        self.p = subprocess.Popen(
            ["unshare", "--mount", "--net", "--pid", "--fork", "--mount-proc", "--kill-child",
             "bash", "-c", boot], cwd=cwd, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            bufsize=1, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()
        # every failing command says so, and the session goes on (set -E: in functions too)
        ok_, out = self.run("set -E; trap 'echo \"@@doctest-err: $BASH_COMMAND (exit $?)\"' ERR; "
                            "echo ready", 30)
        if not ok_ or "ready" not in out:
            self.close()
            raise OSError("no root session: " + out[-500:])

    def _read(self):
        for line in self.p.stdout:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def run(self, text, timeout):
        """(finished, output) of @text typed into the session."""
        self.seq += 1
        mark = "@@doctest-done-%d" % self.seq
        script = os.path.join(self.dir, "block-%d.sh" % self.seq)
        with open(script, "w") as f:
            f.write(text.rstrip("\n") + "\n")
        with self.cond:
            start = len(self.lines)
        try:
            self.p.stdin.write("source %s </dev/null\necho %s\n" % (shlex.quote(script), mark))
            self.p.stdin.flush()
        except (BrokenPipeError, ValueError):
            return False, "the session's shell is gone"
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                got = self.lines[start:]
                if mark in got:
                    return True, "\n".join(got[:got.index(mark)])
                if None in got or time.monotonic() >= end:
                    return False, "\n".join(l for l in got if l is not None)
                self.cond.wait(min(1.0, max(0.01, end - time.monotonic())))

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.p.poll() is None:
            try:
                self.p.stdin.write("exit\n")
                self.p.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()  # --kill-child: bash, PID 1 of the namespace, and so the rest
                self.p.wait()


def root_needs(b):
    """Why root block @b cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root (namespaces)"
    for n in shlex.split(b.arg):
        if not (os.path.exists(n) if "/" in n else shutil.which(n, path=os.environ.get(
                "PATH", "") + ":/usr/sbin:/sbin")):
            return "needs %s (scripts/setup.sh installs it)" % n
    if shutil.which("unshare") is None:
        return "needs unshare (util-linux)"
    return None


def root_commands(body):
    """[(command text, expected lines)] of a root ```console block: `# ` or `$ `
    starts a command (a trailing backslash continues it), the lines up to the
    next one are its output."""
    out, cur, cont = [], None, False
    for raw in body:
        line = raw.rstrip()
        if cont:
            cur[0] += "\n" + line
            cont = line.endswith("\\")
        elif line.startswith(("# ", "$ ")):
            cur = [line[2:], []]
            out.append(cur)
            cont = line.endswith("\\")
        elif cur is not None:
            cur[1].append(line)
    return out


def run_root_block(b, cwd, state):
    why = root_needs(b)
    if why:
        print("ok - %s: # SKIP %s" % (b.where, why))
        return
    if state.get("root") is None:
        if state.get("root_lost"):
            fail(b.where, "not run: the page's root session was lost above")
            return
        try:
            state["root"] = RootSession(cwd)
        except OSError as e:
            print("ok - %s: # SKIP %s" % (b.where, e))
            return
    sess = state["root"]
    if b.lang == "console":
        steps = [(c, e) for c, e in root_commands(b.body)]
    else:
        steps = [("\n".join(b.body), None)]
    for text, expect in steps:
        done, out = sess.run(text, ROOT_BLOCK_S)
        what = text.split("\n")[0][:70]
        if not done:
            # what the page's background jobs wrote (cmd >NAME.log &), for the reason
            logs = []
            for n in sorted(glob.glob(os.path.join(cwd, "*.log"))):
                with open(n, errors="replace") as f:
                    logs.append("# --- %s\n%s" % (os.path.basename(n), "\n".join(
                        "#   " + l for l in f.read().rstrip().split("\n")[-15:])))
            fail(b.where, "%s: no end within %d s (the session is stopped):\n%s\n%s" % (
                what, ROOT_BLOCK_S, "\n".join("#   " + l for l in out.split("\n")[-25:]),
                "\n".join(logs)))
            sess.close()
            state["root"], state["root_lost"] = None, True
            return
        errs = [l for l in out.split("\n") if l.startswith("@@doctest-err: ")]
        if expect and any(l.strip() for l in expect):
            if check_output(b.where, out, expect):
                ok(b.where, "%s: printed what the block shows" % what)
        elif errs:
            fail(b.where, "%s\n%s" % ("; ".join(e[15:] for e in errs),
                                       "\n".join("#   " + l for l in out.split("\n")[-25:])))
        else:
            ok(b.where, "%s: ran as root" % what)


def end_root_session(page, state):
    """The page's sections cleaned up after themselves: no namespace left, no
    job, no daemon (the session's own shell and this probe aside)."""
    sess = state.pop("root", None)
    if sess is None:
        return
    # ps writes a file, not a pipe: the shell forks a pipeline's commands at once, and ps
    # listed sed's fork before its exec, a "bash" left running (3 runs in 6 on a busy box)
    done, out = sess.run("echo \"netns: $(ip netns list | cut -d' ' -f1 | tr '\\n' ' ')\"; "
                         "ps -eo pid=,comm=,args= >/run/doctest-ps; "
                         "sed 's/^ */running: /' /run/doctest-ps; rm -f /run/doctest-ps", 30)
    sess.close()
    # the session's shell is PID 1; ps is the probe itself
    left = [l for l in out.split("\n") if (l.startswith("running: ") and l.split()[1] != "1"
                                           and l.split()[2] not in ("ps", "sed")) or
            (l.startswith("netns: ") and l[7:].strip())]
    if not done:
        fail(page, "the root session did not answer at the end: " + out[-500:])
    elif left:
        fail(page, "the page's root blocks leave behind (each section must clean up at its "
             "end): %s" % "; ".join(left))
    else:
        ok(page, "the root blocks left no namespace and nothing running")


def load_ini_block(b, cwd):
    """An ```ini block that is not a repository file is loaded as a config file
    on two net_null ports for a moment: it must parse and run. `doctest: ini
    [BASE.ini] [OPTION...]` puts a repository file in front of it (a section
    shown alone, e.g. [filter] under config/router.ini) and adds options."""
    extra = shlex.split(b.arg) if b.directive == "ini" else []
    text = "\n".join(b.body) + "\n"
    if extra and extra[0].endswith(".ini"):
        text = open(os.path.join(root, extra.pop(0))).read() + "\n" + text
    path = os.path.join(cwd, "doc-block-%d.ini" % b.line)
    with open(path, "w") as f:
        f.write(text)
    words = ["dpdk-forwarder", "-l", "0,1", "--no-huge", "-m", "256", "--no-pci",
             "--vdev", "net_null0", "--vdev", "net_null1", "--",
             "--config", path, "--duration", "0.2"] + extra
    run_forwarder(b.where + " (ini block)", words, cwd, None)


def check_inline(page):
    """Commands in the prose (`dpdk-forwarder ...` in backticks) name only
    files that exist or that make-pcaps.py makes."""
    text, inside, prose = open(os.path.join(root, page)).read(), False, []
    for line in text.split("\n"):
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            prose.append(line)
    for n, line in enumerate(prose):
        for span in re.findall(r"`([^`]+)`", line):
            try:
                words = shlex.split(span)
            except ValueError:
                continue
            if words and (words[0] in FWD_NAMES or words[-1:] and "vm-run.sh" in span):
                check_inputs("%s (inline `%s`)" % (page, span[:40]), words, None, True)


made_by_script = pcap_maker_files()
fixed = []
for page in pages:
    blocks = blocks_of(page)
    # a tree to run in, for a page with something to run
    runs = any(b.directive not in ("skip", "vm", "file") and (b.lang in SHELL or b.lang == "ini")
               for b in blocks)
    cwd = page_dir(page) if runs else tempfile.mkdtemp(prefix="doctest-")
    state = {"made": False}
    try:
        check_inline(page)
        for b in blocks:
            if b.directive == "file":
                check_file_block(b)
                continue
            if b.lang in SHELL:
                run_shell_block(b, cwd, state)
            elif b.lang == "ini" and b.directive in (None, "ini"):
                load_ini_block(b, cwd)
            elif b.lang == "ini" and b.directive == "skip" and b.arg:
                print("ok - %s: # SKIP %s" % (b.where, b.arg))
            elif b.directive == "root":
                fail(b.where, "`doctest: root` is for ```sh and ```console blocks")
            elif b.lang == "" and b.body:
                first = next((l.split()[0] for l in b.body if l.strip() and not l.lstrip().startswith("#")), "")
                if first in COMMAND_WORDS or first.startswith(("./build/", "build/")):
                    fail(b.where, "a fence without a language holding commands (%r): label it ```sh "
                         "(and mark it if it cannot run here)" % first)
            as_file = presented_as_file(b) if b.lang not in SHELL else None
            if as_file and b.directive != "file":
                fail(b.where, "the text presents this block as `%s`: mark it "
                     "<!-- doctest: file %s --> (or say it is an excerpt, without a colon)" % (as_file, as_file))
        end_root_session(page, state)
    finally:
        if state.get("root"):
            state["root"].close()
        shutil.rmtree(cwd, ignore_errors=True)
# EAL's run dirs of the runs given a --file-prefix here
for d in glob.glob("/var/run/dpdk/doctest-%d-*" % os.getpid()):
    subprocess.run(["rm", "-rf", d])

if fix and fixed:
    by_page = {}
    for b, want in fixed:
        by_page.setdefault(b.page, []).append((b, want))
    for page, items in by_page.items():
        path = os.path.join(root, page)
        lines = open(path).read().split("\n")
        for b, want in sorted(items, key=lambda x: -x[0].line):
            lines[b.line:b.line + len(b.body)] = want
        open(path, "w").write("\n".join(lines))

print("# %d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
