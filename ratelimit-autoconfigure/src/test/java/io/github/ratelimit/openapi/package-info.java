/**
 * Tests of the limits in the OpenAPI document.
 */
@NullMarked
package io.github.ratelimit.openapi;

import org.jspecify.annotations.NullMarked;
