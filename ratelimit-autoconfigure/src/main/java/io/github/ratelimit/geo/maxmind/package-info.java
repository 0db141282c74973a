/**
 * The country database in MaxMind's format ({@code .mmdb}), read with MaxMind's reader
 * ({@code com.maxmind.db:maxmind-db}, an optional dependency).
 */
@NullMarked
package io.github.ratelimit.geo.maxmind;

import org.jspecify.annotations.NullMarked;
