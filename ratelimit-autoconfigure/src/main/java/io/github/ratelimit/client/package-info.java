/**
 * The calling side: what an HTTP client needs to honour the rate limits of the APIs it
 * calls ({@code Retry-After}, the {@code RateLimit} header families, capped exponential
 * backoff with full jitter, pacing while a policy is exhausted and a breaker per host).
 * <p>
 * The core ({@link io.github.ratelimit.client.RateLimitClient},
 * {@link io.github.ratelimit.client.ClientCall}) uses no HTTP library types: adapters for
 * Spring's {@code RestClient}, {@code RestTemplate} and {@code WebClient} ask it, before
 * each attempt, how long to hold and, after each response, whether to hand the response
 * to the caller, wait and retry, or give up.
 */
@NullMarked
package io.github.ratelimit.client;

import org.jspecify.annotations.NullMarked;
