/**
 * Shared by the servlet and reactive adapters: endpoint classification, and the request
 * lifecycle that gives back a request's waiting slot and concurrency permits once,
 * however the request ends.
 */
@NullMarked
package io.github.ratelimit.web;

import org.jspecify.annotations.NullMarked;
