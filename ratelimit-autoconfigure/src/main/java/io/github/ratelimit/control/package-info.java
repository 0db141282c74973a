/**
 * Runtime control, shared by every instance through a
 * {@link io.github.ratelimit.control.ControlStore}: per-identity limit overrides, allow
 * and deny rules, and automatic bans. The limiter reads a snapshot of it on every
 * request; writes (the Actuator endpoint, a ban) go to the store first and reach every
 * instance within the refresh interval.
 */
@NullMarked
package io.github.ratelimit.control;

import org.jspecify.annotations.NullMarked;
