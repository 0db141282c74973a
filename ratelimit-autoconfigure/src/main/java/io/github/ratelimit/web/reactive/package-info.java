/**
 * The WebFlux filter.
 */
@NullMarked
package io.github.ratelimit.web.reactive;

import org.jspecify.annotations.NullMarked;
