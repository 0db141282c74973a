/**
 * Micrometer metrics of decisions.
 */
@NullMarked
package io.github.ratelimit.metrics;

import org.jspecify.annotations.NullMarked;
