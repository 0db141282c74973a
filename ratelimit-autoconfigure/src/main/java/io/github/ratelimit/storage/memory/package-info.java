/**
 * In-memory storage: Bucket4j local buckets in a bounded Caffeine map.
 */
@NullMarked
package io.github.ratelimit.storage.memory;

import org.jspecify.annotations.NullMarked;
