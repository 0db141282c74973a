package io.github.ratelimit.storage;

/**
 * What a store found for one {@link LimitCheck}.
 *
 * @param admitted whether this bucket had the tokens
 * @param available per bandwidth of the check's limit (same order), the tokens the bucket holds after
 * the decision: after consumption when the whole request was admitted, untouched otherwise
 */
public record CheckResult(boolean admitted, long[] available) {

}
