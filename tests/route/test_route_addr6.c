/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The IPv6 address helpers (rt_addr6.h): every RFC 4291 §2.2 text form read, bad text
 * refused, RFC 5952's canonical form written (its own examples), the round trip on random
 * addresses, masks, compare and the scope tests. No EAL.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "fwd_test.h"
#include "rt_addr6.h"

/* @p s parsed, then written: the canonical text, or "ERR" */
static const char *
canon(const char *s, char *buf)
{
	struct rt6_addr x;

	if (rt6_addr_parse(s, &x) != 0)
		return "ERR";
	return rt6_addr_str(&x, buf);
}

static struct rt6_addr
A(const char *s) {
	struct rt6_addr x;

	memset(&x, 0xee, sizeof(x));
	CHECK_EQ(rt6_addr_parse(s, &x), 0);
	return x;
}

/* RFC 4291 §2.2's three forms and the corners of "::" */
static void
test_parse_forms(void)
{
	static const struct {
		const char *in, *out;
	} ok[] = {
		{"2001:db8::1", "2001:db8::1"},
		{"2001:DB8:0:0:8:800:200C:417A", "2001:db8::8:800:200c:417a"},
		{"2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"},
		{"FF01:0:0:0:0:0:0:101", "ff01::101"},
		{"ff01::101", "ff01::101"},
		{"0:0:0:0:0:0:0:1", "::1"},
		{"::1", "::1"},
		{"::", "::"},
		{"0:0:0:0:0:0:0:0", "::"},
		{"1::", "1::"},
		{"1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"},
		{"::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"},
		{"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
		{"fe80::1", "fe80::1"},
		{"ff02::1:ff00:1", "ff02::1:ff00:1"},
		/* the mixed form (§2.2 3.): the last 32 bits as a dotted quad */
		{"0:0:0:0:0:FFFF:129.144.52.38", "::ffff:129.144.52.38"},
		{"::ffff:192.0.2.1", "::ffff:192.0.2.1"},
		{"::13.1.68.3", "::d01:4403"},
		{"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"},
		{"64:ff9b::192.0.2.33", "64:ff9b::c000:221"},
	};
	char buf[RT6_ADDR_STRLEN];
	unsigned int i;

	for (i = 0; i < RTE_DIM(ok); i++) {
		const char *got = canon(ok[i].in, buf);

		if (strcmp(got, ok[i].out) != 0) {
			printf("#   %s -> %s, want %s\n", ok[i].in, got, ok[i].out);
			fwd_test_case_failed = 1;
		}
	}
}

/* text that is not an address: refused, the output left alone */
static void
test_parse_bad(void)
{
	static const char *const bad[] = {
		"",
		":",
		":::",
		"::::",
		"1::2::3",
		"::1::",
		"12345::",
		"1:2:3:4:5:6:7:8:9",
		"1:2:3:4:5:6:7",
		"1:2:3:4:5:6:7:8::",
		":1::",
		"1::2:",
		":1:2:3:4:5:6:7:8",
		"1:2:3:4:5:6:7:8:",
		"g::",
		"::ffff:1.2.3",
		"::ffff:1.2.3.256",
		"::ffff:1.2.3.4.5",
		"::1.2.3.4:5",
		"1.2.3.4",
		"1:2:3:4:5:6:7:1.2.3.4",
		" ::1",
		"::1 ",
		"::1\n",
		"fe80::1%eth0",
		"[::1]",
		"::1/128",
		"0x1::",
		"-1::",
		"+1::",
	};
	struct rt6_addr x, keep;
	unsigned int i;

	memset(&keep, 0x5a, sizeof(keep));
	for (i = 0; i < RTE_DIM(bad); i++) {
		x = keep;
		if (rt6_addr_parse(bad[i], &x) != -EINVAL) {
			printf("#   '%s' taken\n", bad[i]);
			fwd_test_case_failed = 1;
		}
		CHECK(rt6_addr_eq(&x, &keep));
	}
	CHECK_EQ(rt6_addr_parse(NULL, &x), -EINVAL);
}

/* RFC 5952's own examples (§4, §5), and what glibc writes otherwise */
static void
test_format_rfc5952(void)
{
	static const struct {
		const char *in, *out;
	} ex[] = {
		/* §4.1: leading zeros suppressed; "0" is written */
		{"2001:0db8::0001", "2001:db8::1"},
		{"2001:db8:0:0:0:0:2:1", "2001:db8::2:1"},
		/* §4.2.1: "::" as long as possible */
		{"2001:db8:0:0:0:0:2:1", "2001:db8::2:1"},
		/* §4.2.2: not for one zero group */
		{"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},
		{"2001:db8::1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},
		/* §4.2.3: the longest run; the first of equal runs */
		{"2001:0:0:1:0:0:0:1", "2001:0:0:1::1"},
		{"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
		{"1:0:0:2:0:0:3:4", "1::2:0:0:3:4"},
		/* §4.3: lower case */
		{"2001:DB8::AbCd", "2001:db8::abcd"},
		/* §5: IPv4-mapped in the mixed form, nothing else */
		{"::ffff:c000:0280", "::ffff:192.0.2.128"},
		{"::ffff:0:0", "::ffff:0.0.0.0"},
		{"::1:2", "::1:2"},
		{"::ffff:1:2:3", "::ffff:1:2:3"},
		{"::fffe:1.2.3.4", "::fffe:102:304"},
		/* runs at either end */
		{"0:0:1:2:3:4:5:6", "::1:2:3:4:5:6"},
		{"1:2:3:4:5:6:0:0", "1:2:3:4:5:6::"},
		{"0:1:2:3:4:5:6:0", "0:1:2:3:4:5:6:0"},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
			"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
	};
	char buf[RT6_ADDR_STRLEN];
	unsigned int i;

	for (i = 0; i < RTE_DIM(ex); i++) {
		const char *got = canon(ex[i].in, buf);

		if (strcmp(got, ex[i].out) != 0) {
			printf("#   %s -> %s, want %s\n", ex[i].in, got, ex[i].out);
			fwd_test_case_failed = 1;
		}
	}
}

/* random addresses, zero groups likely: written, read back the same, written the same */
static void
test_round_trip(void)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	char b1[RT6_ADDR_STRLEN], b2[RT6_ADDR_STRLEN];
	struct rt6_addr x, y;
	unsigned int i, g;

	for (i = 0; i < 200000; i++) {
		for (g = 0; g < 8; g++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			/* half the groups zero, a few 0xffff: runs and the mapped prefix */
			const unsigned int v =
				(s & 3) < 2 ? 0 : ((s & 7) == 7 ? 0xffff : (s >> 16));

			x.a[2 * g] = (uint8_t)(v >> 8);
			x.a[2 * g + 1] = (uint8_t)v;
		}
		rt6_addr_str(&x, b1);
		CHECK(strlen(b1) < RT6_ADDR_STRLEN);
		CHECK_EQ(rt6_addr_parse(b1, &y), 0);
		CHECK(rt6_addr_eq(&x, &y));
		CHECK_EQ(strcmp(rt6_addr_str(&y, b2), b1), 0);
		CHECK(strstr(b1, ":::") == NULL);
		if (fwd_test_case_failed) {
			printf("#   %s\n", b1);
			return;
		}
	}
}

static void
test_prefix_parse(void)
{
	char buf[RT6_PREFIX_STRLEN];
	struct rt6_addr x, keep;
	uint8_t plen = 99;

	CHECK_EQ(rt6_prefix_parse("2001:db8::/32", &x, &plen, true), 0);
	CHECK_EQ(plen, 32);
	CHECK_EQ(strcmp(rt6_prefix_str(&x, plen, buf), "2001:db8::/32"), 0);
	CHECK_EQ(rt6_prefix_parse("::/0", &x, &plen, true), 0);
	CHECK_EQ(plen, 0);
	CHECK(rt6_addr_is_unspec(&x));
	CHECK_EQ(rt6_prefix_parse("::1/128", &x, &plen, true), 0);
	CHECK_EQ(plen, 128);
	CHECK_EQ(rt6_prefix_parse("2001:db8::1", &x, &plen, false), 0);
	CHECK_EQ(plen, 128);
	/* host bits kept: the caller says whether they are wrong */
	CHECK_EQ(rt6_prefix_parse("2001:db8::1/32", &x, &plen, true), 0);
	CHECK(rt6_addr_has_host_bits(&x, plen));
	CHECK_EQ(strcmp(rt6_prefix_str(&x, plen, buf), "2001:db8::1/32"), 0);

	memset(&keep, 0x5a, sizeof(keep));
	x = keep;
	plen = 77;
	CHECK_EQ(rt6_prefix_parse("2001:db8::", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/129", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/1000", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/-1", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/3x", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/32/1", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("/32", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8::/ 32", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("1.2.3.0/24", &x, &plen, true), -EINVAL);
	CHECK_EQ(rt6_prefix_parse("2001:db8:1:2:3:4:5:6:7:8:9:a:b:c:d:e:f::/32", &x, &plen, true),
		-EINVAL);
	CHECK(rt6_addr_eq(&x, &keep));
	CHECK_EQ(plen, 77);
}

static void
test_masks(void)
{
	char buf[RT6_ADDR_STRLEN];
	struct rt6_addr m, x;
	static const struct {
		uint8_t plen;
		const char *mask;
	} mk[] = {
		{0, "::"},
		{1, "8000::"},
		{7, "fe00::"},
		{10, "ffc0::"},
		{48, "ffff:ffff:ffff::"},
		{63, "ffff:ffff:ffff:fffe::"},
		{64, "ffff:ffff:ffff:ffff::"},
		{65, "ffff:ffff:ffff:ffff:8000::"},
		{127, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"},
		{128, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
		{200, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(mk); i++) {
		rt6_mask(mk[i].plen, &m);
		if (strcmp(rt6_addr_str(&m, buf), mk[i].mask) != 0) {
			printf("#   /%u -> %s, want %s\n", mk[i].plen, buf, mk[i].mask);
			fwd_test_case_failed = 1;
		}
	}
	x = A("2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff");
	rt6_addr_mask(&x, 40);
	CHECK_EQ(strcmp(rt6_addr_str(&x, buf), "2001:db8:aa00::"), 0);
	CHECK(!rt6_addr_has_host_bits(&x, 40));
	CHECK(!rt6_addr_has_host_bits(&x, 39)); /* aa: its last bit is 0 */
	CHECK(rt6_addr_has_host_bits(&x, 38));
	x = A("2001:db8::1");
	CHECK(rt6_addr_has_host_bits(&x, 127));
	CHECK(!rt6_addr_has_host_bits(&x, 128));
	CHECK(rt6_addr_has_host_bits(&x, 0));

	m = A("2001:db8::");
	CHECK(rt6_addr_in_prefix(&x, &m, 32));
	CHECK(rt6_addr_in_prefix(&x, &m, 0));
	CHECK(!rt6_addr_in_prefix(&x, &m, 128));
	x = A("2001:db9::1");
	CHECK(!rt6_addr_in_prefix(&x, &m, 32));
	CHECK(rt6_addr_in_prefix(&x, &m, 31));
	x = A("2001:db8::8000:0:0:0");
	m = A("2001:db8::");
	CHECK(rt6_addr_in_prefix(&x, &m, 64));
	CHECK(!rt6_addr_in_prefix(&x, &m, 65));
}

static void
test_compare(void)
{
	struct rt6_addr a = A("2001:db8::1"), b = A("2001:db8::2"), c = A("2001:db8:0:0:0:0:0:1"),
			d = A("fe80::");
	uint64_t hi, lo;

	CHECK(rt6_addr_eq(&a, &c));
	CHECK(!rt6_addr_eq(&a, &b));
	CHECK(rt6_addr_cmp(&a, &b) < 0);
	CHECK(rt6_addr_cmp(&b, &a) > 0);
	CHECK_EQ(rt6_addr_cmp(&a, &c), 0);
	CHECK(rt6_addr_cmp(&b, &d) < 0); /* numeric order: the first byte counts most */
	rt6_addr_halves(&a, &hi, &lo);
	CHECK(hi == 0x20010db800000000ull);
	CHECK(lo == 1);
	rt6_addr_from_halves(&d, hi, lo);
	CHECK(rt6_addr_eq(&a, &d));
}

static void
test_scopes(void)
{
	struct rt6_addr x;

	x = A("::");
	CHECK(rt6_addr_is_unspec(&x) && !rt6_addr_is_loopback(&x) && !rt6_addr_is_mcast(&x));
	x = A("::1");
	CHECK(rt6_addr_is_loopback(&x) && !rt6_addr_is_unspec(&x));
	x = A("::2");
	CHECK(!rt6_addr_is_loopback(&x) && !rt6_addr_is_unspec(&x));
	x = A("1::1");
	CHECK(!rt6_addr_is_loopback(&x));

	x = A("ff02::1");
	CHECK(rt6_addr_is_mcast(&x));
	CHECK_EQ(rt6_mcast_scope(&x), 2);
	x = A("ff0e::101");
	CHECK_EQ(rt6_mcast_scope(&x), 14);
	x = A("ff31::1");
	CHECK(rt6_addr_is_mcast(&x));
	CHECK_EQ(rt6_mcast_scope(&x), 1);
	x = A("fe80::1");
	CHECK(!rt6_addr_is_mcast(&x));

	/* fe80::/10: fe80 .. febf */
	x = A("fe80::1");
	CHECK(rt6_addr_is_linklocal(&x));
	x = A("febf:ffff::1");
	CHECK(rt6_addr_is_linklocal(&x));
	x = A("fec0::1");
	CHECK(!rt6_addr_is_linklocal(&x));
	x = A("fe7f::1");
	CHECK(!rt6_addr_is_linklocal(&x));
	x = A("ff02::1");
	CHECK(!rt6_addr_is_linklocal(&x));

	x = A("::ffff:192.0.2.1");
	CHECK(rt6_addr_is_v4mapped(&x));
	CHECK(rt6_addr_v4(&x) == 0xc0000201u);
	x = A("::192.0.2.1");
	CHECK(!rt6_addr_is_v4mapped(&x));
	x = A("::fffe:192.0.2.1");
	CHECK(!rt6_addr_is_v4mapped(&x));
	x = A("1::ffff:192.0.2.1");
	CHECK(!rt6_addr_is_v4mapped(&x));
	x = A("64:ff9b::192.0.2.1");
	CHECK(!rt6_addr_is_v4mapped(&x));
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_parse_forms),
	FWD_TEST(test_parse_bad),
	FWD_TEST(test_format_rfc5952),
	FWD_TEST(test_round_trip),
	FWD_TEST(test_prefix_parse),
	FWD_TEST(test_masks),
	FWD_TEST(test_compare),
	FWD_TEST(test_scopes),
};

int
main(void)
{
	return fwd_test_run(cases, RTE_DIM(cases));
}
