/**
 * Rules on how the packages depend on each other.
 */
@NullMarked
package io.github.ratelimit.architecture;

import org.jspecify.annotations.NullMarked;
