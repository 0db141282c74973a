/**
 * Who is calling: client IP through trusted proxies, API keys, Spring Security and user
 * resolvers.
 */
@NullMarked
package io.github.ratelimit.identity;

import org.jspecify.annotations.NullMarked;
