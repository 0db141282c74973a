/**
 * JMH benchmarks of the limiter's decision, in memory and on Redis.
 */
package io.github.ratelimit.bench;
