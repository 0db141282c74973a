/**
 * How loaded this instance is, and what the limiter does about it: a {@link LoadSignal}
 * (in-flight requests, CPU, or the application's own), priority shedding
 * ({@link LoadShedder}) and limits scaled while loaded or warming up
 * ({@link LimitFactors}, {@link ScaledPolicies}). No web types.
 */
@NullMarked
package io.github.ratelimit.load;

import org.jspecify.annotations.NullMarked;
