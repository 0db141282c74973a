/**
 * Tests of identities from Spring Security.
 */
@NullMarked
package io.github.ratelimit.identity.security;

import org.jspecify.annotations.NullMarked;
