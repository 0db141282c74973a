/**
 * Test support: a real Redis for integration tests (an external one, a container, or a
 * {@code redis-server} started on a free loopback port).
 */
@NullMarked
package io.github.ratelimit.test.redis;

import org.jspecify.annotations.NullMarked;
