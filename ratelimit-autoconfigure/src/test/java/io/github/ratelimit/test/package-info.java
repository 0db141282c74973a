/**
 * Test support.
 */
@NullMarked
package io.github.ratelimit.test;

import org.jspecify.annotations.NullMarked;
