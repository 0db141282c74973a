/**
 * The storage SPI: one call decides every limit of a request.
 */
@NullMarked
package io.github.ratelimit.storage;

import org.jspecify.annotations.NullMarked;
