/**
 * The connection to Redis a store keeps: connecting and reconnecting with backoff, the
 * session of a connection, the circuit breaker, and the watch on late answers.
 */
@NullMarked
package io.github.ratelimit.storage.redis.connection;

import org.jspecify.annotations.NullMarked;
