/**
 * Annotations for controllers.
 */
@NullMarked
package io.github.ratelimit.annotation;

import org.jspecify.annotations.NullMarked;
