/**
 * Redis storage: what both strategies share (a store that decides over one kept
 * connection, within a timeout, behind a circuit breaker), with a package per strategy,
 * one for the connection and one for the runtime control store.
 */
@NullMarked
package io.github.ratelimit.storage.redis;

import org.jspecify.annotations.NullMarked;
