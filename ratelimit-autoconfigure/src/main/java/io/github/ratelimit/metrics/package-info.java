/**
 * Micrometer metrics of the limiter's decisions, its store and its runtime control. Tag
 * values are bounded (outcomes, dimensions, tiers, groups, modes): never an id.
 */
@NullMarked
package io.github.ratelimit.metrics;

import org.jspecify.annotations.NullMarked;
