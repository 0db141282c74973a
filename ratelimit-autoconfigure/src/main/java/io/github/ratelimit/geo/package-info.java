/**
 * Country rules: allow or deny client addresses by the ISO country code a country
 * database gives them. No web types, no database format.
 */
@NullMarked
package io.github.ratelimit.geo;

import org.jspecify.annotations.NullMarked;
