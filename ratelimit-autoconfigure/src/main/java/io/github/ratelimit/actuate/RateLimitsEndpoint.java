package io.github.ratelimit.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.ControlInput;
import io.github.ratelimit.control.InvalidControlInputException;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.core.TopRefused;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The {@code ratelimits} Actuator endpoint. Not exposed unless the application exposes it
 * ({@code management.endpoints.web.exposure.include=ratelimits}); its writes are POST and
 * DELETE requests that Spring Security protects like any other Actuator operation.
 * <ul>
 * <li>{@code GET /actuator/ratelimits}: the policy table, overrides, rules and bans in
 * force, and the most refused callers of this instance (this period and the last, 5
 * minutes each);</li>
 * <li>{@code GET /actuator/ratelimits/{user|org|key|ip}/{id}}: one identity's buckets,
 * overrides and ban;</li>
 * <li>{@code POST /actuator/ratelimits/overrides} {@code {dimension, id, limit, group?,
 * expires?}}; {@code POST …/reset} {@code {dimension, id}}; {@code POST …/allow}
 * {@code {subject, tier?, expires?}}; {@code POST …/deny} {@code {subject,
 * expires?}};</li>
 * <li>{@code DELETE /actuator/ratelimits/overrides?dimension=&id=&group=};
 * {@code DELETE …/rules?subject=}; {@code DELETE …/bans?subject=}.</li>
 * </ul>
 * Keys are named by their SHA-256 or token id, never by the key itself; an {@code ip} id
 * is the group the limiter counts the address in (an IPv6 address its /64 by default),
 * and answers show it so.
 * <p>
 * Every value is checked before anything is written: a bad one answers 400 with a message
 * that names the field and shows a valid value (for a limit, the reason the startup check
 * gives); a store that cannot answer, 503. Bad input is never a 503, and never a state
 * that keeps later changes from applying.
 */
@Endpoint(id = "ratelimits")
public class RateLimitsEndpoint {

	/** How many callers the top lists show. */
	private static final int TOP_SIZE = 20;

	private final RuntimeControl control;

	private final RateLimitStore store;

	private final StoreKeys keys;

	private final TopRefused topRefused;

	private final Clock clock;

	private final ClientIpResolver ips;

	/**
	 * Creates the endpoint for clients grouped by the default prefixes (an IPv4 address
	 * is itself, an IPv6 address its /64).
	 */
	public RateLimitsEndpoint(RuntimeControl control, RateLimitStore store, StoreKeys keys, TopRefused topRefused,
			Clock clock) {
		this(control, store, keys, topRefused, clock, new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES,
				ClientIpResolver.DEFAULT_IPV4_PREFIX, ClientIpResolver.DEFAULT_IPV6_PREFIX));
	}

	/**
	 * Creates the endpoint.
	 * @param keys the layout of the keys the limiter asks the store about
	 * @param ips the resolver of the application: {@code ip} ids are read as the groups
	 * it counts clients in
	 */
	public RateLimitsEndpoint(RuntimeControl control, RateLimitStore store, StoreKeys keys, TopRefused topRefused,
			Clock clock, ClientIpResolver ips) {
		this.control = control;
		this.store = store;
		this.keys = keys;
		this.topRefused = topRefused;
		this.clock = clock;
		this.ips = ips;
	}

	@ReadOperation
	public Map<String, Object> ratelimits() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("policies", policies(this.control.table()));
		body.put("overrides", overrides());
		body.put("rules", rules());
		body.put("bans", bans());
		body.put("top", top());
		body.put("refreshInterval", this.control.refreshInterval().toString());
		return body;
	}

	@ReadOperation
	public WebEndpointResponse<Map<String, Object>> section(@Selector String section) {
		return switch (section) {
			case "policies" -> ok(Map.of("policies", policies(this.control.table())));
			case "overrides" -> ok(Map.of("overrides", overrides()));
			case "rules" -> ok(Map.of("rules", rules()));
			case "bans" -> ok(Map.of("bans", bans()));
			case "top" -> ok(Map.of("top", top()));
			default -> notFound(section);
		};
	}

	@ReadOperation
	public WebEndpointResponse<Map<String, Object>> identity(@Selector String dimension, @Selector String id) {
		try {
			Target target = Target.of(dimension, id, this.ips);
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("dimension", target.dimension().key());
			body.put("id", target.id());
			Map<String, String> overrides = new LinkedHashMap<>();
			this.control.overridesOf(target.dimension(), target.id())
				.forEach((group, policy) -> overrides.put(group, policy.limit().spec()));
			body.put("overrides", overrides);
			Ban ban = this.control.bans()
				.stream()
				.filter((b) -> b.subject().equals(target.banSubject()))
				.findFirst()
				.orElse(null);
			body.put("ban", (ban != null) ? ban(ban) : null);
			List<LimitCheck> checks = checks(target);
			try {
				List<CheckResult> results = this.store.inspect(checks);
				body.put("buckets", buckets(checks, results));
			}
			catch (UnsupportedOperationException ex) {
				body.put("buckets", ex.getMessage());
			}
			return ok(body);
		}
		catch (IllegalArgumentException ex) {
			return badRequest(ex);
		}
		catch (StoreUnavailableException ex) {
			return unavailable(ex);
		}
	}

	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> write(@Selector String section, @Nullable String dimension,
			@Nullable String id, @Nullable String group, @Nullable String limit, @Nullable String expires,
			@Nullable String subject, @Nullable String tier) {
		try {
			return switch (section) {
				case "overrides" -> {
					Target target = target(dimension, id);
					LimitOverride override = this.control.setOverride(target.dimension(), target.id(), group(group),
							required("limit", limit, LimitParser.EXAMPLE), expiry(expires));
					yield ok(override(override));
				}
				case "reset" -> {
					Target target = target(dimension, id);
					List<LimitCheck> checks = checks(target);
					this.store.reset(checks);
					yield ok(Map.of("reset", checks.size(), "dimension", target.dimension().key(), "id", target.id()));
				}
				case "allow", "deny" -> {
					AccessRule rule = rule(section, required("subject", subject, Target.SUBJECT_EXAMPLE), tier,
							expiry(expires));
					this.control.setRule(rule);
					yield ok(rule(rule, "runtime"));
				}
				default -> notFound(section);
			};
		}
		catch (IllegalArgumentException ex) {
			// bad input, checked before anything was written
			return badRequest(ex);
		}
		catch (StoreUnavailableException | UnsupportedOperationException ex) {
			return unavailable(ex);
		}
		catch (RuntimeException ex) {
			// a Redis client failure (timeout, connection) is the store not answering,
			// not a bug of the caller
			return unavailable(ex);
		}
	}

	@DeleteOperation
	public WebEndpointResponse<Map<String, Object>> delete(@Selector String section, @Nullable String dimension,
			@Nullable String id, @Nullable String group, @Nullable String subject) {
		try {
			return switch (section) {
				case "overrides" -> {
					Target target = target(dimension, id);
					String overrideGroup = group(group);
					boolean deleted = this.control.deleteOverride(target.dimension(), target.id(), overrideGroup);
					yield ok(Map.of("deleted", deleted, "dimension", target.dimension().key(), "id", target.id(),
							"group", overrideGroup));
				}
				case "rules" -> {
					Subject ruleSubject = Target.subject(required("subject", subject, Target.SUBJECT_EXAMPLE));
					yield ok(
							Map.of("deleted", this.control.deleteRule(ruleSubject), "subject", ruleSubject.toString()));
				}
				case "bans" -> {
					String banSubject = Target.banSubject(required("subject", subject, Target.SUBJECT_EXAMPLE),
							this.ips);
					yield ok(Map.of("lifted", this.control.liftBan(banSubject), "subject", banSubject));
				}
				default -> notFound(section);
			};
		}
		catch (IllegalArgumentException ex) {
			return badRequest(ex);
		}
		catch (RuntimeException ex) {
			return unavailable(ex);
		}
	}

	// ---- reading

	private Map<String, Object> policies(PolicyTable table) {
		Map<String, Object> tiers = new LinkedHashMap<>();
		for (String tier : table.tiers()) {
			Map<String, Object> groups = new LinkedHashMap<>();
			for (String group : table.groups()) {
				List<Map<String, Object>> policies = new ArrayList<>();
				for (Policy policy : table.policies(tier, group)) {
					policies.add(policy(policy));
				}
				Policy concurrency = table.groupConcurrency(group, true);
				if (concurrency != null) {
					policies.add(policy(concurrency));
				}
				groups.put(group, policies);
			}
			tiers.put(tier, groups);
		}
		return tiers;
	}

	private static Map<String, Object> policy(Policy policy) {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("name", policy.name());
		map.put("dimension", policy.dimension().key());
		map.put("limit", policy.limit().spec());
		map.put("mode", policy.mode().name().toLowerCase(Locale.ROOT));
		if (policy.warnAtPercent() > 0) {
			map.put("warnAt", policy.warnAtPercent() + "%");
		}
		return map;
	}

	private List<Map<String, Object>> overrides() {
		return this.control.overrides().stream().map(RateLimitsEndpoint::override).toList();
	}

	private static Map<String, Object> override(LimitOverride override) {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("dimension", override.dimension().key());
		map.put("id", override.id());
		map.put("group", override.group());
		map.put("limit", override.limit());
		map.put("expiresAt", (override.expiresAt() != null) ? override.expiresAt().toString() : null);
		return map;
	}

	private List<Map<String, Object>> rules() {
		List<Map<String, Object>> rules = new ArrayList<>();
		for (AccessRule rule : this.control.rules()) {
			rules.add(rule(rule, this.control.isConfigured(rule) ? "configuration" : "runtime"));
		}
		return rules;
	}

	private static Map<String, Object> rule(AccessRule rule, String source) {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("access", rule.access().name().toLowerCase(Locale.ROOT));
		map.put("subject", rule.subject().toString());
		map.put("tier", rule.tier());
		map.put("expiresAt", (rule.expiresAt() != null) ? rule.expiresAt().toString() : null);
		map.put("source", source);
		return map;
	}

	/**
	 * The most refused callers of this instance: this period so far, and the last one.
	 */
	private Map<String, Object> top() {
		Map<String, Object> top = new LinkedHashMap<>();
		top.put("period", this.topRefused.period().toString());
		top.put("current", Map.of("refusals", this.topRefused.currentTotal(), "callers",
				callers(this.topRefused.current(TOP_SIZE))));
		top.put("last",
				Map.of("refusals", this.topRefused.lastTotal(), "callers", callers(this.topRefused.last(TOP_SIZE))));
		return top;
	}

	private static List<Map<String, Object>> callers(List<TopRefused.Entry> entries) {
		return entries.stream()
			.map((entry) -> Map.<String, Object>of("caller", entry.caller(), "refusals", entry.refusals(), "error",
					entry.error()))
			.toList();
	}

	private List<Map<String, Object>> bans() {
		return this.control.bans().stream().map(this::ban).toList();
	}

	private Map<String, Object> ban(Ban ban) {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("subject", ban.subject());
		map.put("until", ban.until().toString());
		map.put("secondsLeft", ban.secondsLeft(this.clock.millis()));
		map.put("offence", ban.offence());
		return map;
	}

	private static List<Map<String, Object>> buckets(List<LimitCheck> checks, List<CheckResult> results) {
		List<Map<String, Object>> buckets = new ArrayList<>();
		for (int i = 0; i < checks.size(); i++) {
			Policy policy = checks.get(i).policy();
			List<BandwidthResult> bandwidths = results.get(i).bandwidths();
			for (int b = 0; b < bandwidths.size(); b++) {
				BandwidthResult result = bandwidths.get(b);
				Map<String, Object> map = new LinkedHashMap<>();
				map.put("policy", policy.bandwidthName(b));
				map.put("limit", policy.limit().spec());
				map.put("quota", policy.limit().bandwidths().get(b).quota());
				map.put("remaining", Math.max(0, result.remaining()));
				map.put("resetSeconds", (result.millisUntilFull() + 999) / 1000);
				buckets.add(map);
			}
		}
		return buckets;
	}

	/**
	 * Every bucket an identity has in one dimension: each tier's and group's, and its
	 * overrides'.
	 */
	private List<LimitCheck> checks(Target target) {
		PolicyTable table = this.control.table();
		Map<String, LimitCheck> byKey = new LinkedHashMap<>();
		// overrides first: a bucket an override shares with a tier limit is read with the
		// override's limit
		List<Policy> candidates = new ArrayList<>(this.control.overridesOf(target.dimension(), target.id()).values());
		for (String tier : table.tiers()) {
			for (String group : table.groups()) {
				candidates.addAll(table.policies(tier, group));
			}
		}
		for (String group : table.groups()) {
			Policy concurrency = table.groupConcurrency(group, target.dimension() == Dimension.USER);
			if (concurrency != null) {
				candidates.add(concurrency);
			}
			// the backstop alone, as for a caller of no configured tier
			candidates.addAll(table.backstop(group));
		}
		for (Policy policy : candidates) {
			if (policy.dimension() == target.dimension() && !policy.limit().blocked()) {
				String key = this.keys.key(policy, target.id());
				byKey.putIfAbsent(key, new LimitCheck(policy, key, 1, true));
			}
		}
		return new ArrayList<>(byKey.values());
	}

	// ---- input

	private static String required(String name, @Nullable String value, String example) {
		if (value == null || value.isBlank()) {
			throw new InvalidControlInputException(name, "", "a value is required", example);
		}
		return value;
	}

	private Target target(@Nullable String dimension, @Nullable String id) {
		return Target.of(required("dimension", dimension, "user, org, key or ip"), required("id", id, "alice"),
				this.ips);
	}

	private static String group(@Nullable String group) {
		return (group != null && !group.isBlank()) ? group.strip() : Classification.DEFAULT_GROUP;
	}

	private static AccessRule rule(String section, String subject, @Nullable String tier, @Nullable Instant expiresAt) {
		AccessRule.Access access = "allow".equals(section) ? AccessRule.Access.ALLOW : AccessRule.Access.DENY;
		String text = subject.strip();
		String ruleTier = (tier != null && !tier.isBlank()) ? tier.strip() : null;
		int as = text.lastIndexOf(" as ");
		if (as >= 0) {
			// "user:bot as partner", as the properties take it
			ruleTier = (ruleTier != null) ? ruleTier : text.substring(as + 4).strip();
			text = text.substring(0, as);
		}
		if (access == AccessRule.Access.DENY && ruleTier != null) {
			throw new InvalidControlInputException("tier", ruleTier, "a deny rule takes no tier (a tier is for allow "
					+ "rules: the caller gets it instead of bypassing limits)", "leave it out");
		}
		if (ruleTier != null && ruleTier.isEmpty()) {
			throw new InvalidControlInputException("tier", "", "'as' needs a tier name", "premium");
		}
		return new AccessRule(access, Target.subject(text), ruleTier, expiresAt);
	}

	/**
	 * An expiry as a duration from now ({@code 1h}, {@code 7d}, {@code PT30M}) or an
	 * instant, in the future and at most {@link ControlInput#MAX_EXPIRY} ahead;
	 * {@code null} for never. Computed without overflow: a huge value is refused, not an
	 * {@link ArithmeticException}.
	 */
	private @Nullable Instant expiry(@Nullable String expires) {
		if (expires == null || expires.isBlank()) {
			return null;
		}
		String text = expires.strip();
		// to the millisecond, as stores keep it: the answer shows what every instance
		// lists
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
		Duration duration = duration(text);
		if (duration != null) {
			if (duration.isNegative() || duration.isZero()) {
				throw new InvalidControlInputException("expires", text, "a duration from now must be positive",
						ControlInput.EXPIRY_EXAMPLE);
			}
			if (duration.compareTo(ControlInput.MAX_EXPIRY) > 0) {
				throw new InvalidControlInputException("expires", text, "an expiry lies at most "
						+ ControlInput.MAX_EXPIRY.toDays() + " days ahead; leave it out for one that never ends",
						ControlInput.EXPIRY_EXAMPLE);
			}
			return now.plus(duration);
		}
		Instant instant;
		try {
			instant = Instant.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new InvalidControlInputException("expires", text,
					"an expiry is a duration from now (30m, 1h, 7d, PT1H) or an ISO-8601 instant in UTC",
					ControlInput.EXPIRY_EXAMPLE);
		}
		return ControlInput.expiry("expires", instant.truncatedTo(ChronoUnit.MILLIS), now);
	}

	private static @Nullable Duration duration(String text) {
		try {
			return DurationStyle.detectAndParse(text);
		}
		catch (RuntimeException ex) {
			// not a duration (or one beyond what a Duration holds): maybe an instant
			return null;
		}
	}

	// ---- responses

	private static WebEndpointResponse<Map<String, Object>> ok(Map<String, Object> body) {
		return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
	}

	private static WebEndpointResponse<Map<String, Object>> notFound(String section) {
		return new WebEndpointResponse<>(Map.of("error", "Unknown section '" + section + "'"),
				WebEndpointResponse.STATUS_NOT_FOUND);
	}

	private static WebEndpointResponse<Map<String, Object>> badRequest(IllegalArgumentException ex) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("error", (ex.getMessage() != null) ? ex.getMessage() : "Bad request");
		if (ex instanceof InvalidControlInputException invalid) {
			// "property", as the answer has always named it: the input field, named as in
			// the message
			body.put("property", invalid.getField());
			body.put("reason", invalid.getReason());
			body.put("example", invalid.getExample());
		}
		return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
	}

	private static WebEndpointResponse<Map<String, Object>> unavailable(RuntimeException ex) {
		return new WebEndpointResponse<>(Map.of("error", "The rate-limit store could not answer: " + ex.getMessage()),
				WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
	}

}
