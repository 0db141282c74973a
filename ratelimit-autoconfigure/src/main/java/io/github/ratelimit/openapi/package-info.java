/**
 * The limits in the application's OpenAPI document (springdoc): each operation's
 * refusals, headers and per-tier limits, read from the classifier and policy table the
 * filter uses.
 */
@NullMarked
package io.github.ratelimit.openapi;

import org.jspecify.annotations.NullMarked;
