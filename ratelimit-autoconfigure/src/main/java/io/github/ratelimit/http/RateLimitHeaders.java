package io.github.ratelimit.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.http.PolicyFragments.JoinedPolicies;
import io.github.ratelimit.policy.Policy;

/**
 * Writes the rate-limit headers of a {@link Decision} in the configured
 * {@link HeaderStyle styles}. Built once at startup; thread-safe. Web adapters call
 * {@link #write} with a setter of their native response, so this class holds no servlet
 * or reactive types.
 * <p>
 * Every header name is written at most once per call (several policies are members of one
 * List), so a "set" and an "add" setter behave the same.
 */
public final class RateLimitHeaders {

	/**
	 * The IETF draft's quota policies, or in older drafts the binding policy
	 * ({@code 100;w=60}).
	 */
	public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";

	/**
	 * The IETF draft's remaining quota, or in draft -07 a Dictionary of limit, remaining
	 * and reset.
	 */
	/** The IETF draft's field: the binding limit's remaining quota and reset. */
	public static final String RATE_LIMIT = "RateLimit";

	/** Draft-7's split field: the binding limit's quota. */
	public static final String RATE_LIMIT_LIMIT = "RateLimit-Limit";

	/** Draft-7's split field: what is left of the binding limit. */
	public static final String RATE_LIMIT_REMAINING = "RateLimit-Remaining";

	/** Draft-7's split field: seconds until the binding limit is full again. */
	public static final String RATE_LIMIT_RESET = "RateLimit-Reset";

	/** The common {@code X-} field: the binding limit's quota. */
	public static final String X_RATE_LIMIT_LIMIT = "X-RateLimit-Limit";

	/** The common {@code X-} field: what is left of the binding limit. */
	public static final String X_RATE_LIMIT_REMAINING = "X-RateLimit-Remaining";

	/** Seconds until the binding limit is full again (a delay, not an epoch). */
	public static final String X_RATE_LIMIT_RESET = "X-RateLimit-Reset";

	/** Seconds until a refused request could pass (RFC 9110). */
	public static final String RETRY_AFTER = "Retry-After";

	/**
	 * Our warning field, a structured-field List naming each limit a response warns
	 * about: {@code "premium-org-all";code="near-limit";r=1800;t=604800} past a soft
	 * limit ({@code warn-at}), {@code code="over-limit"} when a limit in warn mode would
	 * have refused the request.
	 */
	public static final String RATE_LIMIT_WARNING = "RateLimit-Warning";

	/** Keeps caches from storing a refusal. */
	public static final String CACHE_CONTROL = "Cache-Control";

	private static final String EXAMPLE = "[ietf, x-ratelimit]";

	private static final String NO_STORE = "no-store";

	private static final String ONE_SECOND = "1";

	/**
	 * Policies come from configuration and a bounded set of runtime overrides; the bound
	 * only guards against a custom setup that creates policies per request.
	 */
	private static final int MAX_CACHED_POLICIES = 4096;

	private final Set<HeaderStyle> styles;

	private final boolean ietf;

	private final boolean xRateLimit;

	private final boolean split;

	private final boolean draft7;

	private final List<String> headerNames;

	private final Map<Policy, PolicyFragments> fragments = new ConcurrentHashMap<>();

	private RateLimitHeaders(Set<HeaderStyle> styles) {
		this.styles = Collections.unmodifiableSet(styles);
		this.ietf = styles.contains(HeaderStyle.IETF);
		this.xRateLimit = styles.contains(HeaderStyle.X_RATELIMIT);
		this.split = styles.contains(HeaderStyle.SPLIT);
		this.draft7 = styles.contains(HeaderStyle.DRAFT7);
		this.headerNames = headerNames(this.ietf, this.xRateLimit, this.split, this.draft7);
	}

	/**
	 * Returns a writer of the given header families.
	 * @param styles the families to write; empty writes none, like
	 * {@link HeaderStyle#NONE}
	 * @return the writer
	 * @throws IllegalArgumentException when two styles would write the same field in
	 * different syntaxes ({@code ietf} with {@code split} or {@code draft7},
	 * {@code split} with {@code draft7}), or when {@code none} is combined with another
	 * style
	 */
	public static RateLimitHeaders of(Set<HeaderStyle> styles) {
		EnumSet<HeaderStyle> set = styles.isEmpty() ? EnumSet.noneOf(HeaderStyle.class) : EnumSet.copyOf(styles);
		if (set.contains(HeaderStyle.NONE) && set.size() > 1) {
			throw invalid(set, "'none' hides every rate-limit header, so it cannot be combined with other styles; "
					+ "use [none] alone, or list the families to send");
		}
		if (set.contains(HeaderStyle.IETF) && set.contains(HeaderStyle.SPLIT)) {
			throw invalid(set, "ietf and split both write RateLimit-Policy, in different syntaxes, so clients could "
					+ "not parse it; choose one");
		}
		if (set.contains(HeaderStyle.IETF) && set.contains(HeaderStyle.DRAFT7)) {
			throw invalid(set, "ietf and draft7 both write RateLimit and RateLimit-Policy, in different syntaxes, "
					+ "so clients could not parse them; choose one");
		}
		if (set.contains(HeaderStyle.SPLIT) && set.contains(HeaderStyle.DRAFT7)) {
			throw invalid(set,
					"split and draft7 are two versions of one draft and both write RateLimit-Policy; " + "choose one");
		}
		return new RateLimitHeaders(set);
	}

	/**
	 * Returns a writer of the given header families.
	 * @param styles the families to write
	 * @return the writer
	 * @throws IllegalArgumentException as {@link #of(Set)}
	 */
	public static RateLimitHeaders of(HeaderStyle... styles) {
		return of((styles.length != 0) ? EnumSet.copyOf(Arrays.asList(styles)) : Set.of());
	}

	private static IllegalArgumentException invalid(Set<HeaderStyle> styles, String reason) {
		return new IllegalArgumentException(
				"Invalid rate-limit header styles " + styles + ": " + reason + ". A valid example: " + EXAMPLE);
	}

	/** The configured styles. */
	public Set<HeaderStyle> styles() {
		return this.styles;
	}

	/**
	 * The names of the headers this writer may send, for example to list in
	 * {@code Access-Control-Expose-Headers} so that browser clients can read them.
	 */
	public List<String> headerNames() {
		return this.headerNames;
	}

	/**
	 * Writes the headers of a decision: the rate-limit fields of the configured styles
	 * when a limit applied, and on a refusal {@code Retry-After} and
	 * {@code Cache-Control: no-store} whatever the styles (RFC 6585: a 429 must not be
	 * cached).
	 * @param decision the decision
	 * @param header receives each header name and value, for example
	 * {@code response::setHeader}
	 */
	public void write(Decision decision, BiConsumer<String, String> header) {
		write(decision, decision.limits(), header);
	}

	/**
	 * Writes the headers of a decision that shows other limits than its own, such as a
	 * request decided in two parts.
	 * @param decision the decision, whose refusal headers are written
	 * @param limits the limits the response shows
	 * @param header receives each header name and value
	 */
	public void write(Decision decision, LimitReport limits, BiConsumer<String, String> header) {
		PolicyState binding = limits.binding();
		if (binding != null) {
			writeLimits(limits.states(), binding, limits.warnings(), header);
		}
		if (!limits.warnings().isEmpty() && !this.styles.isEmpty() && !this.styles.contains(HeaderStyle.NONE)) {
			header.accept(RATE_LIMIT_WARNING, warning(limits.warnings()));
		}
		if (decision instanceof Decision.Rejected rejected) {
			retryAfter(rejected.retryAfterSeconds(), header);
		}
		else if (decision instanceof Decision.Banned banned) {
			retryAfter(banned.retryAfterSeconds(), header);
		}
		else if (decision instanceof Decision.Shed shed) {
			retryAfter(shed.retryAfterSeconds(), header);
		}
		else if (decision instanceof Decision.Unavailable) {
			header.accept(RETRY_AFTER, ONE_SECOND);
			header.accept(CACHE_CONTROL, NO_STORE);
		}
		else if (decision instanceof Decision.Refusal) {
			// blocked or denied: waiting never helps
			header.accept(CACHE_CONTROL, NO_STORE);
		}
	}

	private static void retryAfter(long seconds, BiConsumer<String, String> header) {
		header.accept(RETRY_AFTER, Long.toString(Math.max(1, seconds)));
		header.accept(CACHE_CONTROL, NO_STORE);
	}

	private String warning(List<LimitReport.Warning> warnings) {
		StringBuilder value = new StringBuilder(64 * warnings.size());
		for (LimitReport.Warning warning : warnings) {
			PolicyState state = warning.state();
			if (!value.isEmpty()) {
				value.append(", ");
			}
			value.append(StructuredFieldStrings.quote(state.name()))
				.append(warning.overLimit() ? ";code=\"over-limit\";r=" : ";code=\"near-limit\";r=")
				.append(Math.max(0, state.remaining()))
				.append(";t=")
				.append(Math.max(0, state.resetSeconds()));
		}
		return value.toString();
	}

	private void writeLimits(List<PolicyState> states, PolicyState binding, List<LimitReport.Warning> warnings,
			BiConsumer<String, String> header) {
		if (!this.ietf && !this.xRateLimit && !this.split && !this.draft7) {
			return;
		}
		PolicyFragments fragments = fragments(binding.policy());
		int index = binding.bandwidthIndex();
		String remaining = Long.toString(Math.max(0, binding.remaining()));
		String reset = Long.toString(Math.max(0, binding.resetSeconds()));
		if (this.ietf) {
			header.accept(RATE_LIMIT_POLICY, ietfPolicy(states, fragments));
			// one exactly sized string on the usual path; a builder only for warnings
			String rateLimit = fragments.ietfRemainingPrefix(index) + remaining + ";t=" + reset;
			header.accept(RATE_LIMIT, warnings.isEmpty() ? rateLimit : withWarned(rateLimit, binding, warnings));
		}
		if (this.xRateLimit) {
			header.accept(X_RATE_LIMIT_LIMIT, fragments.limit(index));
			header.accept(X_RATE_LIMIT_REMAINING, remaining);
			header.accept(X_RATE_LIMIT_RESET, reset);
		}
		if (this.split) {
			header.accept(RATE_LIMIT_LIMIT, fragments.limit(index));
			header.accept(RATE_LIMIT_REMAINING, remaining);
			header.accept(RATE_LIMIT_RESET, reset);
			header.accept(RATE_LIMIT_POLICY, fragments.legacyPolicy(index));
		}
		if (this.draft7) {
			header.accept(RATE_LIMIT, fragments.draft7Prefix(index) + remaining + ", reset=" + reset);
			header.accept(RATE_LIMIT_POLICY, fragments.legacyPolicy(index));
		}
	}

	/**
	 * The {@code RateLimit} value with every limit a warning names reported too, so the
	 * client sees what it is close to.
	 */
	private String withWarned(String rateLimit, PolicyState binding, List<LimitReport.Warning> warnings) {
		StringBuilder value = new StringBuilder(rateLimit.length() * (warnings.size() + 1)).append(rateLimit);
		for (LimitReport.Warning warning : warnings) {
			PolicyState state = warning.state();
			if (state != binding) {
				value.append(", ")
					.append(fragments(state.policy()).ietfRemainingPrefix(state.bandwidthIndex()))
					.append(Math.max(0, state.remaining()))
					.append(";t=")
					.append(Math.max(0, state.resetSeconds()));
			}
		}
		return value.toString();
	}

	/**
	 * Every bandwidth of every checked policy, in policy order. The value depends on the
	 * policies only, so it stays the same across responses of one tier and group, as the
	 * draft asks.
	 */
	private String ietfPolicy(List<PolicyState> states, PolicyFragments bindingFragments) {
		if (states.isEmpty()) {
			return bindingFragments.ietfPolicy();
		}
		PolicyFragments first = fragments(states.get(0).policy());
		JoinedPolicies joined = first.lastJoined();
		if (joined != null && joined.matches(states)) {
			return joined.value();
		}
		joined = join(states, first);
		first.lastJoined(joined);
		return joined.value();
	}

	/**
	 * States hold the bandwidths of one policy next to each other: a new policy starts a
	 * new run.
	 */
	private JoinedPolicies join(List<PolicyState> states, PolicyFragments first) {
		List<Policy> policies = new ArrayList<>(4);
		Policy previous = states.get(0).policy();
		policies.add(previous);
		StringBuilder builder = new StringBuilder(first.ietfPolicy().length() * 4).append(first.ietfPolicy());
		for (int i = 1; i < states.size(); i++) {
			Policy policy = states.get(i).policy();
			if (policy != previous) {
				builder.append(", ").append(fragments(policy).ietfPolicy());
				policies.add(policy);
				previous = policy;
			}
		}
		String value = (policies.size() == 1) ? first.ietfPolicy() : builder.toString();
		return new JoinedPolicies(policies.toArray(new Policy[0]), value);
	}

	private PolicyFragments fragments(Policy policy) {
		PolicyFragments cached = this.fragments.get(policy);
		if (cached != null) {
			return cached;
		}
		if (this.fragments.size() >= MAX_CACHED_POLICIES) {
			return PolicyFragments.of(policy);
		}
		return this.fragments.computeIfAbsent(policy, PolicyFragments::of);
	}

	private static List<String> headerNames(boolean ietf, boolean xRateLimit, boolean split, boolean draft7) {
		List<String> names = new ArrayList<>();
		if (ietf || draft7) {
			names.add(RATE_LIMIT);
		}
		if (ietf || split || draft7) {
			names.add(RATE_LIMIT_POLICY);
		}
		if (split) {
			names.add(RATE_LIMIT_LIMIT);
			names.add(RATE_LIMIT_REMAINING);
			names.add(RATE_LIMIT_RESET);
		}
		if (xRateLimit) {
			names.add(X_RATE_LIMIT_LIMIT);
			names.add(X_RATE_LIMIT_REMAINING);
			names.add(X_RATE_LIMIT_RESET);
		}
		if (ietf || xRateLimit || split || draft7) {
			names.add(RATE_LIMIT_WARNING);
		}
		names.add(RETRY_AFTER);
		return List.copyOf(names);
	}

}
