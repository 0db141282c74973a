/**
 * The sources of keys of the application's choosing ({@code ratelimit.keys}): a request
 * header, a path variable of the pattern that classified the request, or a read-only
 * Spring Expression over the request and the caller.
 */
@NullMarked
package io.github.ratelimit.keys;

import org.jspecify.annotations.NullMarked;
