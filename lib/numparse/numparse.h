/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef NUMPARSE_H
#define NUMPARSE_H

/**
 * @file
 * The one rule for every number a user writes: options, config file keys
 * in every section, generator settings and shell commands.
 *
 * An integer is one or more ASCII decimal digits and nothing else: no sign
 * (every number is unsigned), no "0x" (leading zeros are decimal, "010" is
 * ten), no blank or other character before or after, and its value in the
 * caller's [min, max]. A real number (seconds, rates) is digits with an
 * optional fraction, "2", "2.5": no exponent, no "inf" or "nan". Seconds
 * other than 0 are at least NUM_SECS_MIN: a shorter time would round to no
 * time at all, which a duration reads as "forever". The caller names the
 * key in its message; these functions only say whether and why not.
 */

#include <stdint.h>

/** The shortest non-zero time in seconds (1 us) num_secs() accepts. */
#define NUM_SECS_MIN 1e-6

/**
 * Parse all of @p s as a decimal integer in [@p min, @p max].
 *
 * @return 0 with *@p out set; -EINVAL if @p s breaks the rule, -ERANGE if
 *   it is a number outside [min, max]. *@p out is left alone on failure.
 */
int num_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/**
 * Parse the decimal real number that starts @p s ("14.88" of "14.88mpps").
 *
 * @param end receives the first character after the number, for a caller
 *   that takes a unit suffix; NULL: the number must be all of @p s.
 * @return 0, or -EINVAL if @p s does not start with one (or, with @p end
 *   NULL, has more).
 */
int num_real(const char *s, const char **end, double *out);

/**
 * Parse all of @p s as seconds: a real number that is 0 or in
 * [NUM_SECS_MIN, @p max].
 *
 * @return 0, -EINVAL (not a number by the rule) or -ERANGE.
 */
int num_secs(const char *s, double max, double *out);

#endif /* NUMPARSE_H */
