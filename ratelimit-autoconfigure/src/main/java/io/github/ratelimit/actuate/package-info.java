/**
 * The ratelimits Actuator endpoint.
 */
@NullMarked
package io.github.ratelimit.actuate;

import org.jspecify.annotations.NullMarked;
