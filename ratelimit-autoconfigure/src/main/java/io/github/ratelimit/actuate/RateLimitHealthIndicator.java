package io.github.ratelimit.actuate;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.FailureModeLog;
import io.github.ratelimit.core.StoreFailures;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;

/**
 * The health of the rate-limit store. It is {@value #DEGRADED}, not {@code DOWN}, while a
 * Redis store is not connected or its circuit breaker is not closed, and while the
 * failure mode decided requests within {@link FailureModeLog#RECENT} (whatever the
 * store): requests still get an answer (the failure mode's), so a Redis outage does not
 * take the application out of its load balancer. Boot's aggregate status ignores a status
 * missing from {@code management.endpoint.health.status.order}; to let it count, add it
 * there (and map it in
 * {@code management.endpoint.health.status.http-mapping.degraded=503}).
 */
public class RateLimitHealthIndicator implements HealthIndicator {

	/** The status of a store that cannot decide now: requests get the failure mode. */
	public static final String DEGRADED = "DEGRADED";

	private final RateLimitStore store;

	private final FailureMode failureMode;

	private final @Nullable FailureModeLog failures;

	public RateLimitHealthIndicator(RateLimitStore store, FailureMode failureMode) {
		this(store, failureMode, null);
	}

	/**
	 * Creates an indicator.
	 * @param store the store
	 * @param failureMode the configured failure mode
	 * @param failures the decisions the failure mode took
	 * ({@link StoreFailures#failureModeLog()}), or {@code null} to report the store's
	 * connection and breaker only
	 */
	public RateLimitHealthIndicator(RateLimitStore store, FailureMode failureMode, @Nullable FailureModeLog failures) {
		this.store = store;
		this.failureMode = failureMode;
		this.failures = failures;
	}

	@Override
	public Health health() {
		FailureModeLog.Failure recent = (this.failures != null) ? this.failures.recent() : null;
		Health.Builder health;
		if (this.store instanceof RemoteStore remote) {
			boolean connected = remote.isConnected();
			RemoteStore.Circuit circuit = remote.circuit();
			health = (connected && circuit == RemoteStore.Circuit.CLOSED && recent == null) ? Health.up() : degraded();
			health.withDetail("store", remote.getClass().getSimpleName())
				.withDetail("connected", connected)
				.withDetail("circuit", circuit.name().toLowerCase(Locale.ROOT).replace('_', '-'));
		}
		else {
			health = (recent != null) ? degraded() : Health.up();
			health.withDetail("store", this.store.getClass().getSimpleName());
		}
		health.withDetail("failureMode", this.failureMode.name().toLowerCase(Locale.ROOT));
		if (recent != null) {
			Map<String, Object> last = new LinkedHashMap<>();
			last.put("kind", recent.kind().tag());
			last.put("message", recent.message());
			last.put("at", recent.at().toString());
			health.withDetail("lastFailure", last);
		}
		if (this.failures != null && this.failures.total() > 0) {
			health.withDetail("failureModeDecisions", this.failures.total());
		}
		return health.build();
	}

	private Health.Builder degraded() {
		return Health.status(new Status(DEGRADED, "Redis cannot decide: " + FailureModeLog.effect(this.failureMode)
				+ " (failure-mode " + this.failureMode.name().toLowerCase(Locale.ROOT) + ")"));
	}

}
