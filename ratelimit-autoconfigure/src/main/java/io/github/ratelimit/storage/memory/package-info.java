/**
 * In-memory storage: Bucket4j local buckets, quota counts and permits in a bounded
 * Caffeine map.
 */
@NullMarked
package io.github.ratelimit.storage.memory;

import org.jspecify.annotations.NullMarked;
