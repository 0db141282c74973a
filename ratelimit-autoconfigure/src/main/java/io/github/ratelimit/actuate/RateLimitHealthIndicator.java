package io.github.ratelimit.actuate;

import java.util.Locale;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.CircuitBreaker;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;

/**
 * The health of the rate-limit store. A Redis store that is not connected, or whose circuit breaker is not
 * closed, is {@value #DEGRADED}, not {@code DOWN}: requests still get an answer (the failure mode's), so a
 * Redis outage does not take the application out of its load balancer. Boot's aggregate status ignores a
 * status missing from {@code management.endpoint.health.status.order}; to let it count, add it there (and
 * map it in {@code management.endpoint.health.status.http-mapping.degraded=503}).
 */
public class RateLimitHealthIndicator implements HealthIndicator {

	/** The status of a store that cannot decide now: requests get the failure mode. */
	public static final String DEGRADED = "DEGRADED";

	private final RateLimitStore store;

	private final FailureMode failureMode;

	public RateLimitHealthIndicator(RateLimitStore store, FailureMode failureMode) {
		this.store = store;
		this.failureMode = failureMode;
	}

	@Override
	public Health health() {
		if (!(this.store instanceof RedisRateLimitStore<?> redis)) {
			return Health.up().withDetail("store", this.store.getClass().getSimpleName()).build();
		}
		boolean connected = redis.isConnected();
		CircuitBreaker.State circuit = redis.circuitBreaker().state();
		Health.Builder health = (connected && circuit == CircuitBreaker.State.CLOSED) ? Health.up()
				: Health.status(new Status(DEGRADED, effect()));
		return health.withDetail("store", redis.getClass().getSimpleName())
			.withDetail("connected", connected)
			.withDetail("circuit", circuit.name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.withDetail("failureMode", this.failureMode.name().toLowerCase(Locale.ROOT))
			.build();
	}

	private String effect() {
		return switch (this.failureMode) {
			case OPEN -> "Redis cannot decide: requests are admitted without limits (failure-mode open)";
			case CLOSED -> "Redis cannot decide: requests are refused with 503 (failure-mode closed)";
			case LOCAL -> "Redis cannot decide: requests are limited per instance (failure-mode local)";
		};
	}

}
