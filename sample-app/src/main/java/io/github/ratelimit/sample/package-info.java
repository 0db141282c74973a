/**
 * The sample app: a small API whose groups, tiers and keys show what the starter does.
 */
package io.github.ratelimit.sample;
