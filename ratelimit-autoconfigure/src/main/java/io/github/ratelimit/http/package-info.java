/**
 * What the limiter writes on the wire: rate-limit headers and the problem+json body.
 */
@NullMarked
package io.github.ratelimit.http;

import org.jspecify.annotations.NullMarked;
