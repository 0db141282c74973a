/**
 * Tests of what the Bucket4j-based stores share.
 */
@NullMarked
package io.github.ratelimit.storage.bucket4j;

import org.jspecify.annotations.NullMarked;
