/**
 * Tests of the sources of keys of the application's choosing.
 */
@NullMarked
package io.github.ratelimit.keys;

import org.jspecify.annotations.NullMarked;
