/**
 * A caller's own standing, for a status endpoint callers ask (as GitHub's
 * {@code GET /rate_limit}): the limits of every endpoint group as they apply to the
 * caller, read from the store without taking a token. No web types.
 */
@NullMarked
package io.github.ratelimit.core.status;

import org.jspecify.annotations.NullMarked;
