package io.github.ratelimit.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.client.HeaderValues.Member;

/**
 * What a response says about the rate limits of the server that sent it.
 * <p>
 * {@link #read} understands every family the server side of this starter writes and the
 * common foreign forms:
 * <ul>
 * <li>{@code ietf}: {@code RateLimit: "burst";r=0;t=23} with
 * {@code RateLimit-Policy: "burst";q=100;w=60} (the member closest to exhaustion
 * counts);</li>
 * <li>{@code draft7}: {@code RateLimit: limit=100, remaining=0, reset=23};</li>
 * <li>{@code split}: {@code RateLimit-Limit}, {@code RateLimit-Remaining},
 * {@code RateLimit-Reset};</li>
 * <li>{@code x-ratelimit}: {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining},
 * {@code X-RateLimit-Reset} in delta-seconds or as an epoch such as GitHub's (a number
 * above 10^9), and GitHub's {@code X-RateLimit-Resource} as the policy;</li>
 * <li>{@code Retry-After} as delta-seconds or an HTTP date.</li>
 * </ul>
 * When a response carries several families, the first of that list wins. A malformed
 * value is ignored, never thrown.
 *
 * @param status the response status
 * @param retryAfter how long {@code Retry-After} asks to wait, or {@code null}
 * @param limit the quota of the reported policy, or {@code null}
 * @param remaining what is left of it, or {@code null}
 * @param reset how long until it frees quota, or {@code null}
 * @param policy the name of the reported policy ({@code ietf}'s member, GitHub's
 * resource), or {@code null}
 */
public record RateLimitSignals(int status, @Nullable Duration retryAfter, @Nullable Long limit,
		@Nullable Long remaining, @Nullable Duration reset, @Nullable String policy) {

	private static final String RETRY_AFTER = "Retry-After";

	private static final String RATE_LIMIT = "RateLimit";

	private static final String RATE_LIMIT_POLICY = "RateLimit-Policy";

	private static final int MAX_NAME_LENGTH = 128;

	/**
	 * Reads the signals of a response.
	 * @param status the response status
	 * @param headers the response headers
	 * @param clock the clock to measure HTTP dates and epoch resets against
	 * @return the signals; every member is {@code null} that the response does not carry
	 * in a readable form
	 */
	public static RateLimitSignals read(int status, HeaderLookup headers, Clock clock) {
		Instant now = clock.instant();
		Duration retryAfter = null;
		Reading reading = null;
		try {
			retryAfter = retryAfter(headers.values(RETRY_AFTER), now);
		}
		catch (RuntimeException ex) {
			// a lookup or value we cannot read is no signal
		}
		try {
			reading = rateLimitField(headers, now);
			if (reading == null) {
				reading = separateFields(headers, "RateLimit-", null, now);
			}
			if (reading == null) {
				reading = separateFields(headers, "X-RateLimit-", "X-RateLimit-Resource", now);
			}
		}
		catch (RuntimeException ex) {
			reading = null;
		}
		if (reading == null) {
			return new RateLimitSignals(status, retryAfter, null, null, null, null);
		}
		return new RateLimitSignals(status, retryAfter, reading.limit, reading.remaining, reading.reset,
				reading.policy);
	}

	/**
	 * Whether the reported policy has nothing left.
	 * @return {@code true} when {@code remaining} is 0
	 */
	public boolean exhausted() {
		return this.remaining != null && this.remaining <= 0;
	}

	/**
	 * The wait the server asks for: {@code Retry-After}, else the reset of an exhausted
	 * policy.
	 * @return the wait, or {@code null} when the response does not say
	 */
	public @Nullable Duration waitHint() {
		if (this.retryAfter != null) {
			return this.retryAfter;
		}
		return exhausted() ? this.reset : null;
	}

	private static @Nullable Duration retryAfter(List<String> values, Instant now) {
		if (values == null) {
			return null;
		}
		for (String value : values) {
			Duration wait = HeaderValues.retryAfter(value, now);
			if (wait != null) {
				return wait;
			}
		}
		return null;
	}

	/**
	 * The {@code RateLimit} field: an IETF List of policies or a draft-07 Dictionary.
	 */
	private static @Nullable Reading rateLimitField(HeaderLookup headers, Instant now) {
		List<Member> members = HeaderValues.members(HeaderValues.joined(headers.values(RATE_LIMIT)));
		if (members.isEmpty()) {
			return null;
		}
		List<Member> policies = HeaderValues.members(HeaderValues.joined(headers.values(RATE_LIMIT_POLICY)));
		Reading ietf = ietf(members, policies, now);
		return (ietf != null) ? ietf : draft7(members, policies, now);
	}

	private static @Nullable Reading ietf(List<Member> members, List<Member> policies, Instant now) {
		Member closest = null;
		long closestRemaining = Long.MAX_VALUE;
		Duration closestReset = null;
		for (Member member : members) {
			Long remaining = (member.key() != null) ? null : member.integerParameter("r");
			if (remaining == null) {
				continue;
			}
			Duration reset = HeaderValues.reset(member.parameters().get("t"), now);
			// the least left counts; among exhausted ones the one that frees last
			if (remaining < closestRemaining || (remaining == closestRemaining && later(reset, closestReset))) {
				closest = member;
				closestRemaining = remaining;
				closestReset = reset;
			}
		}
		if (closest == null) {
			return null;
		}
		Long limit = null;
		for (Member policy : policies) {
			if (policy.key() == null && policy.value().equals(closest.value())) {
				limit = policy.integerParameter("q");
				break;
			}
		}
		return new Reading(limit, closestRemaining, closestReset, name(closest.value()));
	}

	private static boolean later(@Nullable Duration reset, @Nullable Duration than) {
		return reset != null && (than == null || reset.compareTo(than) > 0);
	}

	private static @Nullable Reading draft7(List<Member> members, List<Member> policies, Instant now) {
		Long limit = null;
		Long remaining = null;
		Duration reset = null;
		for (Member member : members) {
			String key = member.key();
			if ("limit".equals(key) && limit == null) {
				limit = HeaderValues.integer(member.value());
			}
			else if ("remaining".equals(key) && remaining == null) {
				remaining = HeaderValues.integer(member.value());
			}
			else if ("reset".equals(key) && reset == null) {
				reset = HeaderValues.reset(member.value(), now);
			}
		}
		if (remaining == null && reset == null) {
			return null;
		}
		if (limit == null && !policies.isEmpty()) {
			limit = HeaderValues.integer(policies.get(0).value());
		}
		return new Reading(limit, remaining, reset, null);
	}

	/**
	 * {@code <prefix>Limit}, {@code <prefix>Remaining} and {@code <prefix>Reset}; the
	 * split form's limit may also come from {@code RateLimit-Policy: 100;w=60}.
	 */
	private static @Nullable Reading separateFields(HeaderLookup headers, String prefix, @Nullable String policyHeader,
			Instant now) {
		Long remaining = HeaderValues.integer(headers.first(prefix + "Remaining"));
		Duration reset = HeaderValues.reset(headers.first(prefix + "Reset"), now);
		if (remaining == null && reset == null) {
			return null;
		}
		Long limit = HeaderValues.integer(headers.first(prefix + "Limit"));
		if (limit == null && policyHeader == null) {
			limit = HeaderValues.integer(headers.first(RATE_LIMIT_POLICY));
		}
		String policy = (policyHeader != null) ? name(headers.first(policyHeader)) : null;
		return new Reading(limit, remaining, reset, policy);
	}

	/**
	 * A policy name from the server ({@code ietf}'s member, GitHub's resource), kept only
	 * when it is short printable ASCII, since it reaches logs.
	 */
	private static @Nullable String name(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String name = value.trim();
		if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
			return null;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c < 0x20 || c > 0x7E) {
				return null;
			}
		}
		return name;
	}

	private record Reading(@Nullable Long limit, @Nullable Long remaining, @Nullable Duration reset,
			@Nullable String policy) {

	}

}
