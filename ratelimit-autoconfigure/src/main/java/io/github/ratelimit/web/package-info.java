/**
 * Shared by the servlet and reactive adapters: endpoint classification and request ids.
 */
@NullMarked
package io.github.ratelimit.web;

import org.jspecify.annotations.NullMarked;
