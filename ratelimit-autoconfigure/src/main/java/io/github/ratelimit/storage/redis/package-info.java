/**
 * Redis storage: Bucket4j's Lettuce proxy manager, shared by every instance.
 */
@NullMarked
package io.github.ratelimit.storage.redis;

import org.jspecify.annotations.NullMarked;
