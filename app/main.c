/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * dpdk-forwarder [EAL options] -- [options]
 *
 * main() parses the application options first (a typo fails before EAL
 * prints a line), brings EAL up with the user's arguments or the embedded
 * default, then walks the application through setup, run and teardown.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_pdump.h>

#include "fwd_app.h"
#include "fwd_ctl.h"
#include "fwd_eal.h"
#include "fwd_lifecycle.h"
#include "fwd_log.h"
#include "fwd_opts.h"
#include "fwd_shell.h"
#include "fwd_telemetry.h"

static struct fwd_app app;

static void
on_signal(int sig)
{
	(void)sig;
	app.quit = true; /* all a handler may do: the main loop and the shell poll it */
}

static int
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -errno;
	return 0;
}

/*
 * Before anything prints or opens a file. A reader closing stdout (`| head`)
 * or a telemetry client hanging up before its answer must not kill the
 * forwarder: with SIGPIPE ignored the write fails with EPIPE instead, the
 * shell and the periodic stats stop writing (fwd_stdout_closed()), and the
 * stats file is still written at exit. A standard descriptor that is not open
 * (`>&-`) gets /dev/null, or the next file EAL opens would take its number and
 * receive the output.
 */
static void
guard_stdio(void)
{
	int fd;

	signal(SIGPIPE, SIG_IGN);
	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free number: @p fd itself */
		n = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd)
			close(n);
	}
}

/* The first two CPUs this process may run on (the same one twice on a 1-CPU box). */
static void
pick_cpus(int *a, int *b)
{
	cpu_set_t set;
	int cpu, n = 0;

	*a = *b = 0;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (n++ == 0)
			*a = *b = cpu;
		else
			*b = cpu;
	}
}

/* FWD_EAL_DEFAULT with "@A", "@B" and "PID" replaced by the given words. */
static void
expand_default(char *out, size_t size, const char *a, const char *b, const char *pid)
{
	const char *s = FWD_EAL_DEFAULT;
	size_t len = 0;

	while (*s != '\0' && len + 16 < size) {
		const char *put = NULL;

		if (strncmp(s, "@A", 2) == 0) {
			put = a;
			s += 2;
		} else if (strncmp(s, "@B", 2) == 0) {
			put = b;
			s += 2;
		} else if (strncmp(s, "PID", 3) == 0) {
			put = pid;
			s += 3;
		}
		if (put != NULL)
			len += (size_t)snprintf(out + len, size - len, "%s", put);
		else
			out[len++] = *s++;
	}
	out[len] = '\0';
}

/*
 * The embedded default (FWD_EAL_DEFAULT): two net_null ports, no hugepages,
 * no PCI, lcore 0 for the stats and lcore 1 forwarding, so the forwarder runs
 * on any Linux box. The words of that one string become the arguments, with
 * A, B and PID filled in, so --help cannot say something else than what runs.
 */
static int
eal_init_default(const char *prog)
{
	static char words[512];
	char *args[32], *w, *save = NULL;
	char cpu_a[16], cpu_b[16], pid[16];
	int a, b, n = 0, i;

	pick_cpus(&a, &b);
	snprintf(cpu_a, sizeof(cpu_a), "@%d", a);
	snprintf(cpu_b, sizeof(cpu_b), "@%d", b);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	expand_default(words, sizeof(words), cpu_a, cpu_b, pid);
	args[n++] = (char *)prog;
	for (w = strtok_r(words, " ", &save); w != NULL && n < (int)RTE_DIM(args) - 1;
		w = strtok_r(NULL, " ", &save))
		args[n++] = w;
	args[n] = NULL;
	printf("dpdk-forwarder: no EAL options given; using the embedded default:\n ");
	for (i = 1; i < n; i++)
		printf(" %s", args[i]);
	printf("\n");
	return rte_eal_init(n, args);
}

/*
 * The runtime directory (<run>/dpdk/<prefix>) to remove at exit, when this
 * process chose its file prefix itself (the embedded default's
 * dpdk-forwarder-PID): nobody else can use that prefix, and EAL 22.11 leaves
 * the directory behind (a test run left hundreds). A prefix the user gave is
 * left, as DPDK's own applications leave it: it may be shared with secondary
 * processes (dpdk-dumpcap, dpdk-proc-info) that still use it, and the user
 * named it, so the user owns it.
 */
static char own_runtime_dir[512];

/* rte_eal_cleanup(), then the runtime directory if it is ours. */
static void
eal_done(void)
{
	rte_eal_cleanup();
	if (own_runtime_dir[0] != '\0')
		fwd_eal_rmdir(own_runtime_dir);
}

/* The network vdevs named on the command line (check_vdevs_probed()). */
static char vdev_names[RTE_MAX_ETHPORTS][RTE_ETH_NAME_MAX_LEN];
static unsigned int n_vdev_names;

/*
 * Note the "--vdev net_..." names before rte_eal_init(), which permutes argv
 * and overwrites the word before "--" with the program name. Only network
 * vdevs (net_ or eth_ names) are ethdev ports; other classes (crypto, event)
 * are not noted.
 */
static void
note_vdevs(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && n_vdev_names < RTE_DIM(vdev_names); i++) {
		const char *v = NULL;
		size_t n;

		if (strcmp(argv[i], "--vdev") == 0 && i + 1 < argc)
			v = argv[++i];
		else if (strncmp(argv[i], "--vdev=", 7) == 0)
			v = argv[i] + 7;
		if (v == NULL || (strncmp(v, "net_", 4) != 0 && strncmp(v, "eth_", 4) != 0))
			continue;
		n = strcspn(v, ",");
		if (n >= sizeof(vdev_names[0]))
			continue; /* longer than any ethdev name: EAL refuses it */
		memcpy(vdev_names[n_vdev_names], v, n);
		vdev_names[n_vdev_names++][n] = '\0';
	}
}

/*
 * Every network vdev of the command line must have become a port. EAL 22.11
 * only logs a vdev whose probe failed (a missing or unreadable rx_pcap, a
 * bad driver argument) and goes on: the forwarder would then run with one
 * port fewer and every later port renumbered, forwarding somewhere else than
 * asked. Returns 0, or -ENODEV with @p err naming the device.
 */
static int
check_vdevs_probed(char *err, size_t errlen)
{
	unsigned int i;
	uint16_t pid;

	for (i = 0; i < n_vdev_names; i++)
		if (rte_eth_dev_get_port_by_name(vdev_names[i], &pid) != 0) {
			snprintf(err, errlen,
				"device %.*s failed to probe (EAL's message above says why: a "
				"missing or unreadable file, a bad driver argument)",
				(int)(errlen / 2), vdev_names[i]); /* room left for the why */
			return -ENODEV;
		}
	return 0;
}

/* After EAL's usage, for "-h" before "--". */
static void
app_usage(const char *prog)
{
	fwd_opts_usage(stdout, prog);
}

int
main(int argc, char **argv)
{
	struct fwd_eal_args eal_args;
	char err[FWD_ERR_LEN];
	int sep, ret, i;

	guard_stdio();
	for (sep = 1; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
		;
	for (i = 1; i < sep; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			/* EAL's own help: it prints its usage, then ours, and exits */
			rte_set_application_usage_hook(app_usage);
			break;
		}
		if (fwd_opts_is_app_option(argv[i])) {
			fwd_err("'%s' is an application option: put it after \"--\" (%s [EAL "
				"options] -- [options])",
				argv[i], argv[0]);
			return EXIT_FAILURE;
		}
	}

	/* Application options first: no EAL is needed to read them. */
	ret = sep < argc
		      ? fwd_opts_parse(&app.cfg, argc - sep - 1, argv + sep + 1, err, sizeof(err))
		      : fwd_opts_parse(&app.cfg, 0, NULL, err, sizeof(err));
	if (ret == FWD_OPTS_HELP) {
		fwd_opts_help(stdout, app.cfg.help_format, argv[0]);
		return EXIT_SUCCESS;
	}
	if (ret < 0) {
		fwd_err("%s", err);
		return EXIT_FAILURE;
	}

	fwd_eal_args_scan(sep, argv, &eal_args); /* before rte_eal_init() permutes argv */
	if (sep == 1) {
		/* FWD_EAL_DEFAULT: --no-huge, and a prefix of our own */
		eal_args.no_huge = true;
		snprintf(eal_args.prefix, sizeof(eal_args.prefix), "dpdk-forwarder-%d",
			(int)getpid());
		fwd_eal_runtime_dir(&eal_args, own_runtime_dir, sizeof(own_runtime_dir));
		ret = eal_init_default(argv[0]);
		if (ret >= 0) /* EAL's own word for it */
			snprintf(own_runtime_dir, sizeof(own_runtime_dir), "%s",
				rte_eal_get_runtime_dir());
	} else {
		note_vdevs(sep, argv);
		ret = rte_eal_init(sep, argv);
	}
	if (ret < 0) {
		int eal_errno = rte_errno;
		char rundir[512];

		fwd_eal_runtime_dir(&eal_args, rundir, sizeof(rundir));
		fwd_eal_explain(
			&eal_args, rundir, "/sys/kernel/mm/hugepages", eal_errno, err, sizeof(err));
		if (err[0] != '\0')
			fwd_err("EAL initialisation failed: %s", err);
		else
			fwd_err("EAL initialisation failed: %s", rte_strerror(eal_errno));
		if (own_runtime_dir[0] != '\0')
			fwd_eal_rmdir(own_runtime_dir);
		return EXIT_FAILURE;
	}
	if (sep > 1 && ret < sep - 1) {
		/* getopt moved what EAL did not take to the end: a forgotten option name */
		fwd_err("unexpected EAL argument '%s' (before \"--\", every value needs its "
			"option, e.g. --vdev NAME)",
			argv[ret + 1]);
		eal_done();
		return EXIT_FAILURE;
	}

	if (check_vdevs_probed(err, sizeof(err)) < 0) {
		fwd_err("%s", err);
		eal_done();
		return EXIT_FAILURE;
	}
	/* the telemetry socket is up: "starting" while the set-up runs, not null */
	fwd_telemetry_register(app.cfg.mode);

	ret = install_signals();
	if (ret == 0)
		ret = fwd_app_setup(&app, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "cannot install signal handlers: %s", strerror(-ret));
	if (ret < 0) {
		fwd_err("%s", err);
		fwd_app_abort(&app);
		eal_done();
		return EXIT_FAILURE;
	}

	if (rte_pdump_init() < 0)
		FWD_LOG(WARNING, "packet capture unavailable: rte_pdump_init failed: %s\n",
			rte_strerror(rte_errno));
	fwd_telemetry_init(&app);

	ret = 0;
	if (app.cfg.cmdline_file[0] != '\0')
		ret = fwd_shell_run(&app, app.cfg.cmdline_file, false);
	if (ret == 0 && !app.quit) {
		if (app.cfg.interactive) {
			if (app.cfg.auto_start)
				fwd_ctl_start_configured(&app);
			fwd_shell_run(&app, NULL, true);
		} else {
			fwd_app_run(&app);
		}
	}
	fwd_telemetry_uninit();
	if (fwd_app_teardown(&app) < 0)
		ret = -1;
	rte_pdump_uninit();
	eal_done();
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
