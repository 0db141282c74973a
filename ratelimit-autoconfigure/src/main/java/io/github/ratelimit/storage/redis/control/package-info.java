/**
 * Runtime control kept in Redis: overrides, access rules and bans, shared by every
 * instance.
 */
@NullMarked
package io.github.ratelimit.storage.redis.control;

import org.jspecify.annotations.NullMarked;
