/**
 * The Bucket4j strategy: a Bucket4j proxy per bucket over Lettuce, with compensation when
 * a request is refused by a later bucket.
 */
@NullMarked
package io.github.ratelimit.storage.redis.bucket4j;

import org.jspecify.annotations.NullMarked;
