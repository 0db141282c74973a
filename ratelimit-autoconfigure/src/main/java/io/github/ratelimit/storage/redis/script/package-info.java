/**
 * The script strategy: every limit of a request decided in one Lua script call, with
 * leases for concurrency permits.
 */
@NullMarked
package io.github.ratelimit.storage.redis.script;

import org.jspecify.annotations.NullMarked;
