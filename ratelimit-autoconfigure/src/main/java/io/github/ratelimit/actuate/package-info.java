/**
 * The Actuator endpoint {@code ratelimits}: the policy table, one identity's buckets, and
 * the runtime control (overrides, allow and deny rules, bans) for operators.
 */
@NullMarked
package io.github.ratelimit.actuate;

import org.jspecify.annotations.NullMarked;
