/**
 * Identities from Spring Security's {@code Authentication}: the one part of identity
 * resolution that needs Spring types.
 */
@NullMarked
package io.github.ratelimit.identity.security;

import org.jspecify.annotations.NullMarked;
