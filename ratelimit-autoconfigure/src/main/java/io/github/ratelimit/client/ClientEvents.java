package io.github.ratelimit.client;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link RateLimitClient} reports as it paces, retries and gives up, for metrics
 * ({@link MicrometerClientEvents}) and logs ({@link LoggingClientEvents}). Every method
 * does nothing by default. Methods are called on the thread of the call, so they must be
 * quick and must not throw.
 */
public interface ClientEvents {

	/** Reports nothing. */
	ClientEvents NONE = new ClientEvents() {
	};

	/**
	 * A call will wait before sending (a pacing hold or a retry's wait).
	 * @param host the host called ({@code api.example.com} or
	 * {@code api.example.com:8443})
	 * @param wait how long
	 * @param reason why
	 */
	default void waited(String host, Duration wait, WaitReason reason) {
	}

	/**
	 * A refused request will be sent again.
	 * @param host the host called
	 * @param status the refusal's status (429 or 503)
	 */
	default void retried(String host, int status) {
	}

	/**
	 * A call gave up and throws a {@link RateLimitedException}.
	 * @param host the host called
	 * @param status the last status, or 429 when the request was not sent
	 * @param reason why
	 */
	default void gaveUp(String host, int status, GiveUpReason reason) {
	}

	/**
	 * A response shows few requests left of a policy (at most
	 * {@link ClientRetrySettings#warnRemainingPercent()} of its limit). Called for every
	 * such response; rate-limit what you log.
	 * @param host the host called
	 * @param policy the policy's name, or {@code null} when the headers name none
	 * @param remaining what is left
	 * @param limit the policy's quota
	 */
	default void fewRemaining(String host, @Nullable String policy, long remaining, long limit) {
	}

	/**
	 * Returns events that report to each of the given ones in turn.
	 * @param events the events
	 * @return the combined events
	 */
	static ClientEvents of(ClientEvents... events) {
		List<ClientEvents> all = List.of(events);
		if (all.size() == 1) {
			return all.get(0);
		}
		return new ClientEvents() {

			@Override
			public void waited(String host, Duration wait, WaitReason reason) {
				all.forEach((each) -> each.waited(host, wait, reason));
			}

			@Override
			public void retried(String host, int status) {
				all.forEach((each) -> each.retried(host, status));
			}

			@Override
			public void gaveUp(String host, int status, GiveUpReason reason) {
				all.forEach((each) -> each.gaveUp(host, status, reason));
			}

			@Override
			public void fewRemaining(String host, @Nullable String policy, long remaining, long limit) {
				all.forEach((each) -> each.fewRemaining(host, policy, remaining, limit));
			}

		};
	}

}
