package io.github.ratelimit.http;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.WindowQuota;

/**
 * The default {@link RejectionBodyWriter}: an RFC 9457 {@code application/problem+json}
 * body that says which limit was hit, for whom, and when to retry. A 429 reads:
 *
 * <pre class="code">
 * { "type": "https://iana.org/assignments/http-problem-types#quota-exceeded",
 *   "title": "Too Many Requests", "status": 429,
 *   "detail": "Request rate exceeded for org 'acme'. Retry after 23 seconds.",
 *   "violated-policies": ["premium-org-export"],
 *   "code": "rate_limit_exceeded", "scope": "org", "group": "export", "tier": "premium",
 *   "limit": 100, "remaining": 0, "retry_after": 23, "reset_at": "2026-01-17T12:34:56Z",
 *   "policy": "100;w=60", "request_id": "7f9c2b1e4d" }
 * </pre>
 *
 * {@code type} and {@code violated-policies} are the IETF draft's registered problem type
 * and member. A blocked tier answers 403 with {@code code} {@code tier_not_allowed}; a
 * store that cannot decide under {@code failure-mode: closed}, 503 with
 * {@code rate_limiter_unavailable}; a request shed while the service is overloaded
 * ({@code ratelimit.load}), 503 with {@code load_shed}. The {@code code} and
 * {@code detail} of a 429 say what kind of limit refused: {@code rate_limit_exceeded}
 * (token bucket), {@code quota_exceeded} (calendar quota),
 * {@code fixed_window_limit_exceeded}, {@code sliding_window_limit_exceeded},
 * {@code steady_rate_exceeded} (leaky bucket) or {@code concurrency_limit_exceeded}. A
 * refusal by a budget of the service shared by every caller has {@code scope}
 * {@code service}, {@code code} {@code service_limit_exceeded} and a detail that says the
 * service is busy ({@link ServiceBusyDetail}).
 * <p>
 * The detail names a user or an organisation (verified names), the value of a key of the
 * application's choosing ({@code for repo 'acme/app'}) or the client address, shortened
 * to {@value #MAX_ID_LENGTH} characters; a token is only ever "this API key", never its
 * hash.
 */
public final class ProblemDetailsBodyWriter implements RejectionBodyWriter {

	/** The media type of RFC 9457 problem details. */
	public static final String CONTENT_TYPE = "application/problem+json";

	/** The IETF draft's problem type for a spent quota. */
	public static final String QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

	/**
	 * The problem type of statuses that need no further explanation (RFC 9457 §4.2.1).
	 */
	public static final String BLANK_TYPE = "about:blank";

	/** The {@code code} of a request refused because the service sheds load. */
	public static final String LOAD_SHED_CODE = "load_shed";

	static final int MAX_ID_LENGTH = 64;

	private static final int MAX_REQUEST_ID_LENGTH = RequestIds.MAX_LENGTH;

	@Override
	public String contentType() {
		return CONTENT_TYPE;
	}

	@Override
	public byte[] write(Decision.Refusal refusal, String requestId) {
		if (refusal instanceof Decision.Rejected rejected) {
			return rejected(rejected, requestId);
		}
		if (refusal instanceof Decision.Blocked blocked) {
			return blocked(blocked, requestId);
		}
		if (refusal instanceof Decision.Banned banned) {
			return banned(banned, requestId);
		}
		if (refusal instanceof Decision.Denied denied) {
			return denied(denied, requestId);
		}
		if (refusal instanceof Decision.Shed shed) {
			return shed(shed, requestId);
		}
		// the one refusal left
		return unavailable((Decision.Unavailable) refusal, requestId);
	}

	private byte[] rejected(Decision.Rejected decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.TOO_MANY_REQUESTS;
		long retryAfter = Math.max(1, decision.retryAfterSeconds());
		PolicyState binding = decision.binding();
		Bandwidth kind = binding.bandwidth();
		// a budget of the service is spent by all callers together: the service is busy
		boolean service = binding.dimension() == Dimension.SERVICE;
		StringBuilder detail = new StringBuilder(96);
		if (service) {
			ServiceBusyDetail.append(detail, binding, decision.classification().group());
		}
		else {
			appendScope(detail.append(exceeded(kind)).append(' '), binding);
		}
		appendHowItFrees(detail.append(". "), kind);
		appendRetryAfter(detail, retryAfter);
		return new JsonWriter().string("type", QUOTA_EXCEEDED_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", detail.toString())
			.strings("violated-policies", decision.violatedPolicies())
			.string("code", service ? ServiceBusyDetail.CODE : code(kind))
			.string("scope", binding.policy().dimensionName())
			.string("group", capped(decision.classification().group(), MAX_ID_LENGTH))
			.string("tier", capped(decision.identity().tier(), MAX_ID_LENGTH))
			.number("limit", binding.limit())
			.number("remaining", Math.max(0, binding.remaining()))
			.number("retry_after", retryAfter)
			.string("reset_at", resetAt(decision.decidedAt(), retryAfter, binding))
			.string("policy", PolicyFragments.legacyPolicy(binding.bandwidth()))
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	/** What was exceeded, by the kind of the binding limit, as the detail starts. */
	private static String exceeded(Bandwidth kind) {
		if (kind instanceof CalendarQuota quota) {
			return switch (quota.period()) {
				case DAY -> "Daily quota exceeded";
				case WEEK -> "Weekly quota exceeded";
				case MONTH -> "Monthly quota exceeded";
			};
		}
		if (kind instanceof FixedWindow window) {
			return "Limit of " + window.quota() + " requests per " + window.label() + " window exceeded";
		}
		if (kind instanceof SlidingWindow window) {
			return "Limit of " + window.quota() + " requests in any sliding " + window.label() + " window exceeded";
		}
		if (kind instanceof LeakyBucket leaky) {
			return "Steady rate of " + leaky.rate() + " requests per " + leaky.label() + " exceeded";
		}
		return (kind instanceof ConcurrencyLimit) ? "Too many concurrent requests" : "Request rate exceeded";
	}

	/**
	 * How the binding limit frees requests, where it differs from a token bucket's or a
	 * quota's (whose detail stays as it always was): what the client may send after
	 * waiting.
	 */
	private static void appendHowItFrees(StringBuilder detail, Bandwidth kind) {
		if (kind instanceof FixedWindow window) {
			detail.append("All ").append(window.quota()).append(" are back when the window ends. ");
		}
		else if (kind instanceof SlidingWindow) {
			detail.append("Requests free up gradually as earlier ones leave the window. ");
		}
		else if (kind instanceof LeakyBucket leaky) {
			detail.append("Requests are let through one at a time, one every ")
				.append(duration(leaky.slotMillis()))
				.append(": space them out rather than send a burst. ");
		}
	}

	/**
	 * The {@code code} member: what kind of limit refused, so clients can tell a rate
	 * from a quota.
	 */
	private static String code(Bandwidth kind) {
		if (kind instanceof CalendarQuota) {
			return "quota_exceeded";
		}
		if (kind instanceof FixedWindow) {
			return "fixed_window_limit_exceeded";
		}
		if (kind instanceof SlidingWindow) {
			return "sliding_window_limit_exceeded";
		}
		if (kind instanceof LeakyBucket) {
			return "steady_rate_exceeded";
		}
		return (kind instanceof ConcurrencyLimit) ? "concurrency_limit_exceeded" : "rate_limit_exceeded";
	}

	private byte[] blocked(Decision.Blocked decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.FORBIDDEN;
		Policy blockedBy = decision.blockedBy();
		String group = capped(decision.classification().group(), MAX_ID_LENGTH);
		String tier = capped(decision.identity().tier(), MAX_ID_LENGTH);
		String endpoints = Classification.DEFAULT_GROUP.equals(group) ? "these endpoints"
				: "the '" + group + "' endpoints";
		// the backstop applies to every tier: naming the caller's tier would suggest an
		// upgrade helps
		String detail = blockedBy.isBackstop() ? "No caller may call " + endpoints + "."
				: "The '" + tier + "' tier may not call " + endpoints + ".";
		return new JsonWriter().string("type", BLANK_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", detail)
			.string("code", "tier_not_allowed")
			.string("scope", blockedBy.dimensionName())
			.string("group", group)
			.string("tier", tier)
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	private byte[] denied(Decision.Denied decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.FORBIDDEN;
		return new JsonWriter().string("type", BLANK_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", deniedDetail(decision.reason()))
			.string("code", decision.reason().code())
			.string("group", capped(decision.classification().group(), MAX_ID_LENGTH))
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	private static String deniedDetail(DenialReason reason) {
		return switch (reason) {
			case ACCESS_RULE -> "Access to this API is denied to this client.";
			case GEO -> "Access to this API is not available from this client's country.";
			case REPUTATION -> "Access to this API is denied to this client's network.";
		};
	}

	private byte[] banned(Decision.Banned decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.FORBIDDEN;
		long retryAfter = Math.max(1, decision.retryAfterSeconds());
		StringBuilder detail = new StringBuilder(96)
			.append("This client is banned for repeatedly exceeding its rate limits. ");
		appendRetryAfter(detail, retryAfter);
		return new JsonWriter().string("type", BLANK_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", detail.toString())
			.string("code", "banned")
			.string("group", capped(decision.classification().group(), MAX_ID_LENGTH))
			.string("tier", capped(decision.identity().tier(), MAX_ID_LENGTH))
			.number("retry_after", retryAfter)
			.string("reset_at", resetAt(decision.decidedAt(), retryAfter))
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	private byte[] unavailable(Decision.Unavailable decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.SERVICE_UNAVAILABLE;
		return new JsonWriter().string("type", BLANK_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", "The rate limiter could not check this request. Retry after 1 second.")
			.string("code", "rate_limiter_unavailable")
			.string("group", capped(decision.classification().group(), MAX_ID_LENGTH))
			.string("tier", capped(decision.identity().tier(), MAX_ID_LENGTH))
			.number("retry_after", 1)
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	private byte[] shed(Decision.Shed decision, String requestId) {
		RateLimitStatus status = RateLimitStatus.SERVICE_UNAVAILABLE;
		long retryAfter = Math.max(1, decision.retryAfterSeconds());
		StringBuilder detail = new StringBuilder(96)
			.append("The service is overloaded and sheds requests of this priority; no limit of yours was spent. ");
		appendRetryAfter(detail, retryAfter);
		return new JsonWriter().string("type", BLANK_TYPE)
			.string("title", status.reasonPhrase())
			.number("status", status.code())
			.string("detail", detail.toString())
			.string("code", LOAD_SHED_CODE)
			.string("group", capped(decision.classification().group(), MAX_ID_LENGTH))
			.string("tier", capped(decision.identity().tier(), MAX_ID_LENGTH))
			.string("priority", decision.priority().toString())
			.number("retry_after", retryAfter)
			.string("reset_at", resetAt(decision.decidedAt(), retryAfter))
			.string("request_id", capped(requestId, MAX_REQUEST_ID_LENGTH))
			.toBytes();
	}

	/** Whose limit it was, in words: {@code for org 'acme'}, {@code for this API key}. */
	private static void appendScope(StringBuilder detail, PolicyState binding) {
		Dimension dimension = binding.dimension();
		String id = binding.id();
		switch (dimension) {
			case USER -> detail.append("for user '").append(capped(id, MAX_ID_LENGTH)).append('\'');
			case ORG -> detail.append("for org '").append(capped(id, MAX_ID_LENGTH)).append('\'');
			// a key of the application's choosing: named as configured, with the
			// caller's value
			case KEY -> detail.append("for ")
				.append(binding.policy().dimensionName())
				.append(" '")
				.append(capped(id, MAX_ID_LENGTH))
				.append('\'');
			// the id of a token is a hash of the credential: still a secret's
			// fingerprint, never shown
			case TOKEN -> detail.append("for this API key");
			// a hash of the user name tried: the account is named by whoever knows it,
			// never by us
			case ACCOUNT -> detail.append("of failed logins for this account");
			// a refusal by the service's budget reads as the service being busy instead
			case SERVICE -> detail.append("for all callers together");
			case IP -> {
				if (ClientIpResolver.UNKNOWN.equals(id)) {
					detail.append("for an unknown client address");
				}
				else {
					detail.append((id.indexOf('/') >= 0) ? "for IP network " : "for IP address ")
						.append(capped(id, MAX_ID_LENGTH));
				}
			}
		}
	}

	/** A duration as a limit string writes it: {@code 100ms}, {@code 6s}, {@code 1h}. */
	private static String duration(long millis) {
		if (millis % 86_400_000 == 0) {
			return (millis / 86_400_000) + "d";
		}
		if (millis % 3_600_000 == 0) {
			return (millis / 3_600_000) + "h";
		}
		if (millis % 60_000 == 0) {
			return (millis / 60_000) + "m";
		}
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	private static void appendRetryAfter(StringBuilder detail, long seconds) {
		detail.append("Retry after ").append(seconds).append((seconds == 1) ? " second." : " seconds.");
	}

	/**
	 * When the request can pass again, rounded up to the second: rounding down would name
	 * a moment at which the client is still refused.
	 */
	private static String resetAt(Instant decidedAt, long retryAfterSeconds) {
		return resetAt(decidedAt, retryAfterSeconds, null);
	}

	/**
	 * As {@link #resetAt(Instant, long)}, but a calendar quota or a fixed window resets
	 * at its boundary, which the rounding up of {@code retry_after} and then of the
	 * moment would pass by up to two seconds.
	 */
	private static String resetAt(Instant decidedAt, long retryAfterSeconds, @Nullable PolicyState binding) {
		if (binding != null && binding.violated() && binding.bandwidth() instanceof WindowQuota quota) {
			long decided = decidedAt.toEpochMilli();
			long boundary = quota.window(decided).end();
			// the store's clock (Redis TIME) may differ slightly: use the boundary its
			// answer points at
			if (boundary > decided + (retryAfterSeconds - 1) * 1000 && boundary <= decided + retryAfterSeconds * 1000) {
				return Instant.ofEpochMilli(boundary).toString();
			}
		}
		Instant reset = decidedAt.plusSeconds(retryAfterSeconds);
		Instant seconds = reset.truncatedTo(ChronoUnit.SECONDS);
		return (seconds.equals(reset) ? seconds : seconds.plusSeconds(1)).toString();
	}

	/**
	 * Shortens {@code value} to {@code max} characters and a trailing ellipsis, never
	 * splitting a pair.
	 */
	static String capped(String value, int max) {
		if (value.length() <= max) {
			return value;
		}
		int end = Character.isHighSurrogate(value.charAt(max - 1)) ? max - 1 : max;
		return value.substring(0, end).concat("\u2026");
	}

}
