/**
 * The Spring MVC (servlet) filter.
 */
@NullMarked
package io.github.ratelimit.web.servlet;

import org.jspecify.annotations.NullMarked;
