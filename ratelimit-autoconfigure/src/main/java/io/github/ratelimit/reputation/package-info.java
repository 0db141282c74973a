/**
 * Reputation lists: deny or tier lists of CIDR ranges loaded from files or URLs (the
 * format of the common drop lists and Tor exit lists), refreshed on an interval and
 * looked up by binary search. No web types.
 */
@NullMarked
package io.github.ratelimit.reputation;

import org.jspecify.annotations.NullMarked;
