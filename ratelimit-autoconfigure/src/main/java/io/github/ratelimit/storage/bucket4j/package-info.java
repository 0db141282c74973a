/**
 * What the Bucket4j-based stores share: Bucket4j configurations built from our policies.
 */
@NullMarked
package io.github.ratelimit.storage.bucket4j;

import org.jspecify.annotations.NullMarked;
