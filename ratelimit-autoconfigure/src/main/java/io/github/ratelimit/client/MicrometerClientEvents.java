package io.github.ratelimit.client;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The calling side's meters, with bounded tags only (never a host, URI or policy):
 * <ul>
 * <li>{@value #WAITS} (timer): waits before sending, tag {@code reason} (retry-after,
 * reset, backoff, pacing);</li>
 * <li>{@value #RETRIES} (counter): refused requests sent again, tag {@code status} (429,
 * 503);</li>
 * <li>{@value #GIVE_UPS} (counter): calls that threw a {@link RateLimitedException}, tags
 * {@code reason} (unsafe-method, attempts, budget, wait-too-long, breaker-open) and
 * {@code status}.</li>
 * </ul>
 * The only class of the client's core that needs Micrometer, which is optional.
 */
public final class MicrometerClientEvents implements ClientEvents {

	/** Waits before sending, by reason. */
	public static final String WAITS = "ratelimit.client.waits";

	/** Refused requests sent again, by status. */
	public static final String RETRIES = "ratelimit.client.retries";

	/** Calls given up, by reason and status. */
	public static final String GIVE_UPS = "ratelimit.client.give-ups";

	private final MeterRegistry registry;

	/**
	 * Creates the events.
	 * @param registry where to record
	 */
	public MicrometerClientEvents(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void waited(String host, Duration wait, WaitReason reason) {
		Timer.builder(WAITS)
			.description("Waits of the rate-limit client before sending a request")
			.tag("reason", reason.tag())
			.register(this.registry)
			.record(wait);
	}

	@Override
	public void retried(String host, int status) {
		Counter.builder(RETRIES)
			.description("Requests the rate-limit client sent again after a refusal")
			.tag("status", status(status))
			.register(this.registry)
			.increment();
	}

	@Override
	public void gaveUp(String host, int status, GiveUpReason reason) {
		Counter.builder(GIVE_UPS)
			.description("Calls the rate-limit client gave up, throwing RateLimitedException")
			.tag("reason", reason.tag())
			.tag("status", status(status))
			.register(this.registry)
			.increment();
	}

	/** Only refusals reach these meters; anything else is folded so tags stay bounded. */
	private static String status(int status) {
		return switch (status) {
			case 429 -> "429";
			case 503 -> "503";
			default -> "other";
		};
	}

}
