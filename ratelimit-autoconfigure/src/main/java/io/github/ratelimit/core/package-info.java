/**
 * The rate-limit decision: identities, policies and the store brought together, with no
 * web types.
 */
@NullMarked
package io.github.ratelimit.core;

import org.jspecify.annotations.NullMarked;
