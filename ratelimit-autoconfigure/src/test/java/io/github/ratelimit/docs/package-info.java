/**
 * Tests that the documentation and the code agree.
 */
@NullMarked
package io.github.ratelimit.docs;

import org.jspecify.annotations.NullMarked;
