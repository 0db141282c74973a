package io.github.ratelimit.core;

/**
 * One bucket of a subject as the store holds it now, for operators: one bandwidth of one
 * policy.
 *
 * @param policy the bandwidth's name, as headers report it
 * @param limit the policy's limit, as written ({@code "10/1s, 500/1h"})
 * @param quota what the bandwidth's window refills
 * @param remaining tokens left (never below 0)
 * @param resetSeconds whole seconds until the bucket is full again, rounded up
 */
public record BucketState(String policy, String limit, long quota, long remaining, long resetSeconds) {

}
