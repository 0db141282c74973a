/**
 * Limits parsed from configuration and the table of policies per tier, group and
 * dimension.
 */
@NullMarked
package io.github.ratelimit.policy;

import org.jspecify.annotations.NullMarked;
